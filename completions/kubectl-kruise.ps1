
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-kruise' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-kruise'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-kruise' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the client version and, when the API server answers, the server version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install (or update) the apps.kruise.io CRDs with server-side apply (--manager: and run the controllers in the cluster)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove the apps.kruise.io CRDs (--manager: and the in-cluster controllers); refuses while custom resources of them exist')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('__complete', '__complete', [CompletionResultType]::ParameterValue, 'Completion candidates in kubectl''s plugin protocol (used by kubectl_complete-kruise)')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List workloads with the columns the API server prints for their kind')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage rollouts of workloads (status, step, pause, resume, restart, history, undo)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a field of a workload''s rollout (partition, image, env, resources, serviceaccount)')
            [CompletionResult]::new('scale', 'scale', [CompletionResultType]::ParameterValue, 'Set the replicas of a workload, optionally naming the pods to remove')
            [CompletionResult]::new('scaledown', 'scaledown', [CompletionResultType]::ParameterValue, 'Remove the named pods of a CloneSet and lower its replicas (kruise-tools spelling)')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'kubectl exec into a pod; -S SIDECAR: into a sidecar (a hot-upgrade pair''s working half)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Move a Deployment''s pods to a CloneSet, a few at a time (resumable)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What applying a manifest would do: each pod kept, updated in place or recreated, in the controller''s order and batches, then the object''s diff (exit 1: a change)')
            [CompletionResult]::new('expose', 'expose', [CompletionResultType]::ParameterValue, 'Make a Service for a workload''s pods (its selector and container ports)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an object from another (a Job or BroadcastJob from an AdvancedCronJob)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the controllers in the foreground against the current kubeconfig')
            [CompletionResult]::new('testenv', 'testenv', [CompletionResultType]::ParameterValue, 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;version' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;install' {
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Install only these kinds (comma-separated, as OpenKruise names them)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the CRDs (with --manager, the manager''s objects too) without sending them; `server` sends them with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the CRDs in this format instead of one line each (with --dry-run=client and --manager, the manager''s objects too)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the CRDs in this format instead of one line each (with --dry-run=client and --manager, the manager''s objects too)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the CRDs to become Established')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'The manager''s image')
            [CompletionResult]::new('--replicas', '--replicas', [CompletionResultType]::ParameterName, 'The manager''s replicas (one leads, the others stand by and serve the webhooks)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--take-over', '--take-over', [CompletionResultType]::ParameterName, 'Over an OpenKruise install: remove its fail-closed webhook configurations (only when kruise-manager is not running)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--manager', '--manager', [CompletionResultType]::ParameterName, 'Also run the controllers in the cluster: a Deployment of `kubectl-kruise run` under its own service account and least-privilege RBAC, in the -n namespace (default kruise-system)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;uninstall' {
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Uninstall only these kinds (comma-separated)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the CRDs to be gone')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--manager', '--manager', [CompletionResultType]::ParameterName, 'Also remove the in-cluster manager (of the -n namespace, default kruise-system)')
            [CompletionResult]::new('--keep-crds', '--keep-crds', [CompletionResultType]::ParameterName, 'With --manager: remove only the manager, not the CRDs')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Delete the CRDs even though objects of them exist (they are deleted with them)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;completion' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;__complete' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;get' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--revisions', '--revisions', [CompletionResultType]::ParameterName, 'With --tree: how many revisions to show')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'List in every namespace')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'List in every namespace')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit the header line')
            [CompletionResult]::new('--tree', '--tree', [CompletionResultType]::ParameterName, 'Draw one named workload as a tree: its revisions, newest first, and the pods at each')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Wait for a rollout to finish, one line per change')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause the rollout of workloads: no more pods are updated (scaling continues)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume paused rollouts')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the revisions of a workload, or show one with --revision N')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Go back to an earlier revision, previewing what happens to each pod')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart every pod of workloads (recreated, respecting maxUnavailable)')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Release one batch at a time: show the next pods, ask, lower the partition, wait')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;rollout;status' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match, one after the other')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match, one after the other')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Keep watching until done (false: print one snapshot)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep watching until done (false: print one snapshot)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this long (0: wait forever)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Where to stop')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Watch this revision only; exit 1 if the update revision becomes another one')
            [CompletionResult]::new('--stuck-after', '--stuck-after', [CompletionResultType]::ParameterName, 'Fail when an in-place update has not finished after this long')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the final report (json, yaml) or one JSON object per change (jsonl)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the final report (json, yaml) or one JSON object per change (jsonl)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--exit-status', '--exit-status', [CompletionResultType]::ParameterName, 'With --watch=false: exit 0 only when complete (3 failed, 5 paused, 6 progressing)')
            [CompletionResult]::new('--fail-on-pause', '--fail-on-pause', [CompletionResultType]::ParameterName, 'Exit 5 when the rollout is paused instead of waiting')
            [CompletionResult]::new('--no-fail-fast', '--no-fail-fast', [CompletionResultType]::ParameterName, 'Do not fail on failing pods or stuck in-place updates (only the progress deadline)')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Appended lines even on a terminal')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'No colour in the live view')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;pause' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;resume' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;history' {
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Show the pod template of this revision')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;undo' {
            [CompletionResult]::new('--to-revision', '--to-revision', [CompletionResultType]::ParameterName, 'The revision to go back to (default: the one before the newest)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;restart' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Every object of the type whose labels match this selector')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;step' {
            [CompletionResult]::new('--batch', '--batch', [CompletionResultType]::ParameterName, 'Pods per batch: a number or a percentage of replicas (default: maxUnavailable)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a batch after this long (0: wait forever)')
            [CompletionResult]::new('--stuck-after', '--stuck-after', [CompletionResultType]::ParameterName, 'Fail a batch whose in-place update has not finished after this long')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the next batch and the patch without sending it; `server` sends the first batch''s patch with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask before each batch')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask before each batch')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Appended lines even on a terminal')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'No colour in the live view')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;rollout;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Wait for a rollout to finish, one line per change')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause the rollout of workloads: no more pods are updated (scaling continues)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume paused rollouts')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the revisions of a workload, or show one with --revision N')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Go back to an earlier revision, previewing what happens to each pod')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart every pod of workloads (recreated, respecting maxUnavailable)')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Release one batch at a time: show the next pods, ask, lower the partition, wait')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;rollout;help;status' {
            break
        }
        'kubectl-kruise;rollout;help;pause' {
            break
        }
        'kubectl-kruise;rollout;help;resume' {
            break
        }
        'kubectl-kruise;rollout;help;history' {
            break
        }
        'kubectl-kruise;rollout;help;undo' {
            break
        }
        'kubectl-kruise;rollout;help;restart' {
            break
        }
        'kubectl-kruise;rollout;help;step' {
            break
        }
        'kubectl-kruise;rollout;help;help' {
            break
        }
        'kubectl-kruise;set' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('partition', 'partition', [CompletionResultType]::ParameterValue, 'Keep N pods (or P% of them) at the old revision; shows which pods update next')
            [CompletionResult]::new('image', 'image', [CompletionResultType]::ParameterValue, 'Change container images (CONTAINER=IMAGE ...)')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Set or remove environment variables of the pod template''s containers')
            [CompletionResult]::new('resources', 'resources', [CompletionResultType]::ParameterValue, 'Set resource limits and requests of the pod template''s containers')
            [CompletionResult]::new('serviceaccount', 'serviceaccount', [CompletionResultType]::ParameterValue, 'Set the pod template''s service account')
            [CompletionResult]::new('sa', 'sa', [CompletionResultType]::ParameterValue, 'Set the pod template''s service account')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;set;partition' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;image' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;env' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A KEY=VALUE to set (repeatable; `-` reads KEY=VALUE lines from stdin)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'A KEY=VALUE to set (repeatable; `-` reads KEY=VALUE lines from stdin)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The containers to change (wildcards: `*`, `?`)')
            [CompletionResult]::new('--containers', '--containers', [CompletionResultType]::ParameterName, 'The containers to change (wildcards: `*`, `?`)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Set a variable for each key of this Secret or ConfigMap (secret/NAME, configmap/NAME)')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'Only these keys of --from (comma-separated)')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'Prepend this to the name of every variable set')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Whether a variable that has a value may be given another')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print the variables (after the changes given) instead of writing them')
            [CompletionResult]::new('--resolve', '--resolve', [CompletionResultType]::ParameterName, 'With --list: print the values of Secret and ConfigMap references')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;resources' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The containers to change (wildcards: `*`, `?`)')
            [CompletionResult]::new('--containers', '--containers', [CompletionResultType]::ParameterName, 'The containers to change (wildcards: `*`, `?`)')
            [CompletionResult]::new('--limits', '--limits', [CompletionResultType]::ParameterName, 'Limits to set, e.g. cpu=200m,memory=512Mi')
            [CompletionResult]::new('--requests', '--requests', [CompletionResultType]::ParameterName, 'Requests to set, e.g. cpu=100m,memory=256Mi')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;serviceaccount' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;sa' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;set;help' {
            [CompletionResult]::new('partition', 'partition', [CompletionResultType]::ParameterValue, 'Keep N pods (or P% of them) at the old revision; shows which pods update next')
            [CompletionResult]::new('image', 'image', [CompletionResultType]::ParameterValue, 'Change container images (CONTAINER=IMAGE ...)')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Set or remove environment variables of the pod template''s containers')
            [CompletionResult]::new('resources', 'resources', [CompletionResultType]::ParameterValue, 'Set resource limits and requests of the pod template''s containers')
            [CompletionResult]::new('serviceaccount', 'serviceaccount', [CompletionResultType]::ParameterValue, 'Set the pod template''s service account')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;set;help;partition' {
            break
        }
        'kubectl-kruise;set;help;image' {
            break
        }
        'kubectl-kruise;set;help;env' {
            break
        }
        'kubectl-kruise;set;help;resources' {
            break
        }
        'kubectl-kruise;set;help;serviceaccount' {
            break
        }
        'kubectl-kruise;set;help;help' {
            break
        }
        'kubectl-kruise;scale' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the updated object in this format instead of one line')
            [CompletionResult]::new('--replicas', '--replicas', [CompletionResultType]::ParameterName, 'The new number of replicas (default with --delete: current minus the pods named)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Pods to remove, comma separated (CloneSet only)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;scaledown' {
            [CompletionResult]::new('--pods', '--pods', [CompletionResultType]::ParameterName, 'Pods to remove, comma separated')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the patch without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;exec' {
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'The sidecar, by its SidecarSet name (a hot-upgrade pair: its working half)')
            [CompletionResult]::new('--sidecar', '--sidecar', [CompletionResultType]::ParameterName, 'The sidecar, by its SidecarSet name (a hot-upgrade pair: its working half)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The container, by its own name')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'The container, by its own name')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Pass stdin to the container')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Pass stdin to the container')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Stdin is a TTY')
            [CompletionResult]::new('--tty', '--tty', [CompletionResultType]::ParameterName, 'Stdin is a TTY')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;migrate' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The Deployment to take them from (deployment/NAME)')
            [CompletionResult]::new('--replicas', '--replicas', [CompletionResultType]::ParameterName, 'How many pods to move (default: the Deployment''s replicas when the migration starts)')
            [CompletionResult]::new('--max-surge', '--max-surge', [CompletionResultType]::ParameterName, 'Pods added before as many are removed: a number or a percentage of the total')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long one step may wait for its pods')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the steps and writes nothing')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;diff' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The manifest (`-` for stdin)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The manifest (`-` for stdin)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;expose' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The Service''s name (default: the workload''s)')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port the Service serves (default: the template''s container ports)')
            [CompletionResult]::new('--target-port', '--target-port', [CompletionResultType]::ParameterName, 'The container port (number or name) the Service sends to (default: the port)')
            [CompletionResult]::new('--protocol', '--protocol', [CompletionResultType]::ParameterName, 'TCP, UDP or SCTP (default: the container port''s, else TCP)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'The Service''s type')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'A selector of labels (k=v,k2=v2) instead of the workload''s')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Labels of the Service (k=v,k2=v2) instead of the workload''s')
            [CompletionResult]::new('--labels', '--labels', [CompletionResultType]::ParameterName, 'Labels of the Service (k=v,k2=v2) instead of the workload''s')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the Service without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the created Service in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the created Service in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;create' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'Create a Job (or BroadcastJob) from an AdvancedCronJob''s template, now')
            [CompletionResult]::new('broadcastjob', 'broadcastjob', [CompletionResultType]::ParameterValue, 'Create a BroadcastJob from an AdvancedCronJob''s broadcastJobTemplate, now')
            [CompletionResult]::new('bcj', 'bcj', [CompletionResultType]::ParameterValue, 'Create a BroadcastJob from an AdvancedCronJob''s broadcastJobTemplate, now')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;create;job' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The AdvancedCronJob to take the template from (acj/NAME)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the object without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;create;broadcastjob' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The AdvancedCronJob to take the template from (acj/NAME)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the object without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;create;bcj' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The AdvancedCronJob to take the template from (acj/NAME)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, '`client` prints the object without sending it; `server` sends it with dry-run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the created object in this format instead of one line')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;create;help' {
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'Create a Job (or BroadcastJob) from an AdvancedCronJob''s template, now')
            [CompletionResult]::new('broadcastjob', 'broadcastjob', [CompletionResultType]::ParameterValue, 'Create a BroadcastJob from an AdvancedCronJob''s broadcastJobTemplate, now')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;create;help;job' {
            break
        }
        'kubectl-kruise;create;help;broadcastjob' {
            break
        }
        'kubectl-kruise;create;help;help' {
            break
        }
        'kubectl-kruise;run' {
            [CompletionResult]::new('--controllers', '--controllers', [CompletionResultType]::ParameterName, 'Controllers to start, comma separated (default: all that exist)')
            [CompletionResult]::new('--qps', '--qps', [CompletionResultType]::ParameterName, 'Client requests per second (0: no limit)')
            [CompletionResult]::new('--burst', '--burst', [CompletionResultType]::ParameterName, 'Client burst above --qps')
            [CompletionResult]::new('--workers', '--workers', [CompletionResultType]::ParameterName, 'Concurrent reconciles per controller: N, or KIND=N for one controller (repeatable)')
            [CompletionResult]::new('--metrics-addr', '--metrics-addr', [CompletionResultType]::ParameterName, 'Also serve /metrics, /healthz and /readyz over plain HTTP on this address (e.g. 127.0.0.1:8080)')
            [CompletionResult]::new('--webhooks', '--webhooks', [CompletionResultType]::ParameterName, 'Serve and register the admission webhooks (--webhooks=false: neither)')
            [CompletionResult]::new('--webhook-addr', '--webhook-addr', [CompletionResultType]::ParameterName, 'Where the HTTPS server listens (port 0: any free port)')
            [CompletionResult]::new('--webhook-host', '--webhook-host', [CompletionResultType]::ParameterName, 'The host (IP or DNS name) the API server dials to reach the webhooks')
            [CompletionResult]::new('--webhook-service', '--webhook-service', [CompletionResultType]::ParameterName, 'In-cluster: the configurations point at this Service instead of a URL')
            [CompletionResult]::new('--leader-elect', '--leader-elect', [CompletionResultType]::ParameterName, 'Hold a Lease so that only one run writes at a time (--leader-elect=false: no lease)')
            [CompletionResult]::new('--leader-elect-namespace', '--leader-elect-namespace', [CompletionResultType]::ParameterName, 'Namespace of the Lease (default: the -n namespace, else `default`)')
            [CompletionResult]::new('--leader-elect-name', '--leader-elect-name', [CompletionResultType]::ParameterName, 'Name of the Lease')
            [CompletionResult]::new('--leader-elect-lease-duration', '--leader-elect-lease-duration', [CompletionResultType]::ParameterName, 'How long the Lease holds without a renewal (a standby takes over after it)')
            [CompletionResult]::new('--stall-after', '--stall-after', [CompletionResultType]::ParameterName, 'A controller with an object waiting this long, and no reconcile finished in as long, is stalled')
            [CompletionResult]::new('--feature-gates', '--feature-gates', [CompletionResultType]::ParameterName, 'OpenKruise''s feature gates, as kruise-manager takes them (NAME=true|false,...; AllAlpha, AllBeta)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('up', 'up', [CompletionResultType]::ParameterValue, 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval')
            [CompletionResult]::new('down', 'down', [CompletionResultType]::ParameterValue, 'Stop the control plane and remove its run directory')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Say whether a control plane is running, and where')
            [CompletionResult]::new('restart-apiserver', 'restart-apiserver', [CompletionResultType]::ParameterValue, 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run the control plane in the foreground (what `up` starts in the background)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;testenv;up' {
            [CompletionResult]::new('--run-dir', '--run-dir', [CompletionResultType]::ParameterName, 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]')
            [CompletionResult]::new('--bin-dir', '--bin-dir', [CompletionResultType]::ParameterName, 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)')
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)')
            [CompletionResult]::new('--node-label', '--node-label', [CompletionResultType]::ParameterName, 'A label of the simulated nodes, KEY=V1[,V2...] (repeatable): node i gets value i mod the number of values (node-pool=pool-a,pool-b,pool-c)')
            [CompletionResult]::new('--node-taint', '--node-taint', [CompletionResultType]::ParameterName, 'A taint of the simulated nodes, KEY[=VALUE]:EFFECT, on every node or on those listed after @ (dedicated=gpu:NoSchedule@4,5; repeatable)')
            [CompletionResult]::new('--start-delay', '--start-delay', [CompletionResultType]::ParameterName, 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)')
            [CompletionResult]::new('--image-pull-delay', '--image-pull-delay', [CompletionResultType]::ParameterName, 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)')
            [CompletionResult]::new('--completion-delay', '--completion-delay', [CompletionResultType]::ParameterName, 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)')
            [CompletionResult]::new('--same-image', '--same-image', [CompletionResultType]::ParameterName, 'Two tags of one image digest, IMAGE=SAME (repeatable): the kubelet reports SAME''s imageID for IMAGE')
            [CompletionResult]::new('--exits-without-command', '--exits-without-command', [CompletionResultType]::ParameterName, 'An image whose default command exits at once (repeatable): a container that runs it without a `command` crashes (CrashLoopBackOff)')
            [CompletionResult]::new('--missing-image', '--missing-image', [CompletionResultType]::ParameterName, 'An image no registry has (repeatable): pulling it fails (ImagePullBackOff), on start and on an in-place change')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for readiness')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--builtin-workload-controllers', '--builtin-workload-controllers', [CompletionResultType]::ParameterName, 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Write the API server''s audit log of every write (metadata level, JSON lines) to RUN_DIR/logs/audit.log: who wrote what, by user agent')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv;down' {
            [CompletionResult]::new('--run-dir', '--run-dir', [CompletionResultType]::ParameterName, 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv;status' {
            [CompletionResult]::new('--run-dir', '--run-dir', [CompletionResultType]::ParameterName, 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv;restart-apiserver' {
            [CompletionResult]::new('--run-dir', '--run-dir', [CompletionResultType]::ParameterName, 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the restarted API server')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv;serve' {
            [CompletionResult]::new('--run-dir', '--run-dir', [CompletionResultType]::ParameterName, 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]')
            [CompletionResult]::new('--bin-dir', '--bin-dir', [CompletionResultType]::ParameterName, 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)')
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)')
            [CompletionResult]::new('--node-label', '--node-label', [CompletionResultType]::ParameterName, 'A label of the simulated nodes, KEY=V1[,V2...] (repeatable): node i gets value i mod the number of values (node-pool=pool-a,pool-b,pool-c)')
            [CompletionResult]::new('--node-taint', '--node-taint', [CompletionResultType]::ParameterName, 'A taint of the simulated nodes, KEY[=VALUE]:EFFECT, on every node or on those listed after @ (dedicated=gpu:NoSchedule@4,5; repeatable)')
            [CompletionResult]::new('--start-delay', '--start-delay', [CompletionResultType]::ParameterName, 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)')
            [CompletionResult]::new('--image-pull-delay', '--image-pull-delay', [CompletionResultType]::ParameterName, 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)')
            [CompletionResult]::new('--completion-delay', '--completion-delay', [CompletionResultType]::ParameterName, 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)')
            [CompletionResult]::new('--same-image', '--same-image', [CompletionResultType]::ParameterName, 'Two tags of one image digest, IMAGE=SAME (repeatable): the kubelet reports SAME''s imageID for IMAGE')
            [CompletionResult]::new('--exits-without-command', '--exits-without-command', [CompletionResultType]::ParameterName, 'An image whose default command exits at once (repeatable): a container that runs it without a `command` crashes (CrashLoopBackOff)')
            [CompletionResult]::new('--missing-image', '--missing-image', [CompletionResultType]::ParameterName, 'An image no registry has (repeatable): pulling it fails (ImagePullBackOff), on start and on an in-place change')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects (default: the context''s, then `default`)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the operation')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a certificate file for the certificate authority')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Limit for one API request, e.g. 30s (0 = no limit)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity 0-9 (logs go to stderr)')
            [CompletionResult]::new('--builtin-workload-controllers', '--builtin-workload-controllers', [CompletionResultType]::ParameterName, 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Write the API server''s audit log of every write (metadata level, JSON lines) to RUN_DIR/logs/audit.log: who wrote what, by user agent')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-kruise;testenv;help' {
            [CompletionResult]::new('up', 'up', [CompletionResultType]::ParameterValue, 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval')
            [CompletionResult]::new('down', 'down', [CompletionResultType]::ParameterValue, 'Stop the control plane and remove its run directory')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Say whether a control plane is running, and where')
            [CompletionResult]::new('restart-apiserver', 'restart-apiserver', [CompletionResultType]::ParameterValue, 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run the control plane in the foreground (what `up` starts in the background)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;testenv;help;up' {
            break
        }
        'kubectl-kruise;testenv;help;down' {
            break
        }
        'kubectl-kruise;testenv;help;status' {
            break
        }
        'kubectl-kruise;testenv;help;restart-apiserver' {
            break
        }
        'kubectl-kruise;testenv;help;serve' {
            break
        }
        'kubectl-kruise;testenv;help;help' {
            break
        }
        'kubectl-kruise;help' {
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the client version and, when the API server answers, the server version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install (or update) the apps.kruise.io CRDs with server-side apply (--manager: and run the controllers in the cluster)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove the apps.kruise.io CRDs (--manager: and the in-cluster controllers); refuses while custom resources of them exist')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('__complete', '__complete', [CompletionResultType]::ParameterValue, 'Completion candidates in kubectl''s plugin protocol (used by kubectl_complete-kruise)')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List workloads with the columns the API server prints for their kind')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage rollouts of workloads (status, step, pause, resume, restart, history, undo)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a field of a workload''s rollout (partition, image, env, resources, serviceaccount)')
            [CompletionResult]::new('scale', 'scale', [CompletionResultType]::ParameterValue, 'Set the replicas of a workload, optionally naming the pods to remove')
            [CompletionResult]::new('scaledown', 'scaledown', [CompletionResultType]::ParameterValue, 'Remove the named pods of a CloneSet and lower its replicas (kruise-tools spelling)')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'kubectl exec into a pod; -S SIDECAR: into a sidecar (a hot-upgrade pair''s working half)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Move a Deployment''s pods to a CloneSet, a few at a time (resumable)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What applying a manifest would do: each pod kept, updated in place or recreated, in the controller''s order and batches, then the object''s diff (exit 1: a change)')
            [CompletionResult]::new('expose', 'expose', [CompletionResultType]::ParameterValue, 'Make a Service for a workload''s pods (its selector and container ports)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create an object from another (a Job or BroadcastJob from an AdvancedCronJob)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the controllers in the foreground against the current kubeconfig')
            [CompletionResult]::new('testenv', 'testenv', [CompletionResultType]::ParameterValue, 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-kruise;help;version' {
            break
        }
        'kubectl-kruise;help;install' {
            break
        }
        'kubectl-kruise;help;uninstall' {
            break
        }
        'kubectl-kruise;help;completion' {
            break
        }
        'kubectl-kruise;help;__complete' {
            break
        }
        'kubectl-kruise;help;get' {
            break
        }
        'kubectl-kruise;help;rollout' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Wait for a rollout to finish, one line per change')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause the rollout of workloads: no more pods are updated (scaling continues)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume paused rollouts')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the revisions of a workload, or show one with --revision N')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Go back to an earlier revision, previewing what happens to each pod')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart every pod of workloads (recreated, respecting maxUnavailable)')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Release one batch at a time: show the next pods, ask, lower the partition, wait')
            break
        }
        'kubectl-kruise;help;rollout;status' {
            break
        }
        'kubectl-kruise;help;rollout;pause' {
            break
        }
        'kubectl-kruise;help;rollout;resume' {
            break
        }
        'kubectl-kruise;help;rollout;history' {
            break
        }
        'kubectl-kruise;help;rollout;undo' {
            break
        }
        'kubectl-kruise;help;rollout;restart' {
            break
        }
        'kubectl-kruise;help;rollout;step' {
            break
        }
        'kubectl-kruise;help;set' {
            [CompletionResult]::new('partition', 'partition', [CompletionResultType]::ParameterValue, 'Keep N pods (or P% of them) at the old revision; shows which pods update next')
            [CompletionResult]::new('image', 'image', [CompletionResultType]::ParameterValue, 'Change container images (CONTAINER=IMAGE ...)')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Set or remove environment variables of the pod template''s containers')
            [CompletionResult]::new('resources', 'resources', [CompletionResultType]::ParameterValue, 'Set resource limits and requests of the pod template''s containers')
            [CompletionResult]::new('serviceaccount', 'serviceaccount', [CompletionResultType]::ParameterValue, 'Set the pod template''s service account')
            break
        }
        'kubectl-kruise;help;set;partition' {
            break
        }
        'kubectl-kruise;help;set;image' {
            break
        }
        'kubectl-kruise;help;set;env' {
            break
        }
        'kubectl-kruise;help;set;resources' {
            break
        }
        'kubectl-kruise;help;set;serviceaccount' {
            break
        }
        'kubectl-kruise;help;scale' {
            break
        }
        'kubectl-kruise;help;scaledown' {
            break
        }
        'kubectl-kruise;help;exec' {
            break
        }
        'kubectl-kruise;help;migrate' {
            break
        }
        'kubectl-kruise;help;diff' {
            break
        }
        'kubectl-kruise;help;expose' {
            break
        }
        'kubectl-kruise;help;create' {
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'Create a Job (or BroadcastJob) from an AdvancedCronJob''s template, now')
            [CompletionResult]::new('broadcastjob', 'broadcastjob', [CompletionResultType]::ParameterValue, 'Create a BroadcastJob from an AdvancedCronJob''s broadcastJobTemplate, now')
            break
        }
        'kubectl-kruise;help;create;job' {
            break
        }
        'kubectl-kruise;help;create;broadcastjob' {
            break
        }
        'kubectl-kruise;help;run' {
            break
        }
        'kubectl-kruise;help;testenv' {
            [CompletionResult]::new('up', 'up', [CompletionResultType]::ParameterValue, 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval')
            [CompletionResult]::new('down', 'down', [CompletionResultType]::ParameterValue, 'Stop the control plane and remove its run directory')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Say whether a control plane is running, and where')
            [CompletionResult]::new('restart-apiserver', 'restart-apiserver', [CompletionResultType]::ParameterValue, 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run the control plane in the foreground (what `up` starts in the background)')
            break
        }
        'kubectl-kruise;help;testenv;up' {
            break
        }
        'kubectl-kruise;help;testenv;down' {
            break
        }
        'kubectl-kruise;help;testenv;status' {
            break
        }
        'kubectl-kruise;help;testenv;restart-apiserver' {
            break
        }
        'kubectl-kruise;help;testenv;serve' {
            break
        }
        'kubectl-kruise;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
