
use builtin;
use str;

set edit:completion:arg-completer[kubectl-kruise] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kubectl-kruise'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kubectl-kruise'= {
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand version 'Print the client version and, when the API server answers, the server version'
            cand install 'Install (or update) the apps.kruise.io CRDs with server-side apply'
            cand uninstall 'Remove the apps.kruise.io CRDs; refuses while custom resources of them exist'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand __complete 'Completion candidates in kubectl''s plugin protocol (used by kubectl_complete-kruise)'
            cand testenv 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-kruise;version'= {
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;install'= {
            cand --only 'Install only these kinds (comma-separated, as OpenKruise names them)'
            cand --dry-run '`client` prints the CRDs without sending them; `server` sends them with dry-run'
            cand -o 'Print the CRDs in this format instead of one line each'
            cand --output 'Print the CRDs in this format instead of one line each'
            cand --timeout 'How long to wait for the CRDs to become Established'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;uninstall'= {
            cand --only 'Uninstall only these kinds (comma-separated)'
            cand --timeout 'How long to wait for the CRDs to be gone'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --force 'Delete the CRDs even though objects of them exist (they are deleted with them)'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;completion'= {
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;__complete'= {
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;testenv'= {
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand up 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
            cand down 'Stop the control plane and remove its run directory'
            cand status 'Say whether a control plane is running, and where'
            cand serve 'Run the control plane in the foreground (what `up` starts in the background)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-kruise;testenv;up'= {
            cand --run-dir 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]'
            cand --bin-dir 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)'
            cand --nodes 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)'
            cand --start-delay 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)'
            cand --image-pull-delay 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)'
            cand --completion-delay 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)'
            cand --timeout 'How long to wait for readiness'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --builtin-workload-controllers 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;testenv;down'= {
            cand --run-dir 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;testenv;status'= {
            cand --run-dir 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;testenv;serve'= {
            cand --run-dir 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]'
            cand --bin-dir 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)'
            cand --nodes 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)'
            cand --start-delay 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)'
            cand --image-pull-delay 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)'
            cand --completion-delay 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)'
            cand --kubeconfig 'Path to the kubeconfig file to use'
            cand --context 'The name of the kubeconfig context to use'
            cand --cluster 'The name of the kubeconfig cluster to use'
            cand --user 'The name of the kubeconfig user to use'
            cand -n 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand --namespace 'Namespace for namespaced objects (default: the context''s, then `default`)'
            cand -s 'The address and port of the Kubernetes API server'
            cand --server 'The address and port of the Kubernetes API server'
            cand --token 'Bearer token for authentication to the API server'
            cand --as 'User to impersonate for the operation'
            cand --as-group 'Group to impersonate (repeatable)'
            cand --certificate-authority 'Path to a certificate file for the certificate authority'
            cand --client-certificate 'Path to a client certificate file for TLS'
            cand --client-key 'Path to a client key file for TLS'
            cand --tls-server-name 'Server name to use for server certificate validation'
            cand --request-timeout 'Limit for one API request, e.g. 30s (0 = no limit)'
            cand -v 'Log verbosity 0-9 (logs go to stderr)'
            cand --v 'Log verbosity 0-9 (logs go to stderr)'
            cand --builtin-workload-controllers 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate (insecure)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-kruise;testenv;help'= {
            cand up 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
            cand down 'Stop the control plane and remove its run directory'
            cand status 'Say whether a control plane is running, and where'
            cand serve 'Run the control plane in the foreground (what `up` starts in the background)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-kruise;testenv;help;up'= {
        }
        &'kubectl-kruise;testenv;help;down'= {
        }
        &'kubectl-kruise;testenv;help;status'= {
        }
        &'kubectl-kruise;testenv;help;serve'= {
        }
        &'kubectl-kruise;testenv;help;help'= {
        }
        &'kubectl-kruise;help'= {
            cand version 'Print the client version and, when the API server answers, the server version'
            cand install 'Install (or update) the apps.kruise.io CRDs with server-side apply'
            cand uninstall 'Remove the apps.kruise.io CRDs; refuses while custom resources of them exist'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand __complete 'Completion candidates in kubectl''s plugin protocol (used by kubectl_complete-kruise)'
            cand testenv 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-kruise;help;version'= {
        }
        &'kubectl-kruise;help;install'= {
        }
        &'kubectl-kruise;help;uninstall'= {
        }
        &'kubectl-kruise;help;completion'= {
        }
        &'kubectl-kruise;help;__complete'= {
        }
        &'kubectl-kruise;help;testenv'= {
            cand up 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
            cand down 'Stop the control plane and remove its run directory'
            cand status 'Say whether a control plane is running, and where'
            cand serve 'Run the control plane in the foreground (what `up` starts in the background)'
        }
        &'kubectl-kruise;help;testenv;up'= {
        }
        &'kubectl-kruise;help;testenv;down'= {
        }
        &'kubectl-kruise;help;testenv;status'= {
        }
        &'kubectl-kruise;help;testenv;serve'= {
        }
        &'kubectl-kruise;help;help'= {
        }
    ]
    $completions[$command]
}
