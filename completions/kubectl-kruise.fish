# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_kruise_global_optspecs
    string join \n kubeconfig= context= cluster= user= n/namespace= s/server= token= as= as-group= certificate-authority= client-certificate= client-key= insecure-skip-tls-verify tls-server-name= request-timeout= v/v= h/help V/version
end

function __fish_kubectl_kruise_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_kruise_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_kruise_using_subcommand
    set -l cmd (__fish_kubectl_kruise_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "version" -d 'Print the client version and, when the API server answers, the server version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "install" -d 'Install (or update) the apps.kruise.io CRDs with server-side apply (--manager: and run the controllers in the cluster)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "uninstall" -d 'Remove the apps.kruise.io CRDs (--manager: and the in-cluster controllers); refuses while custom resources of them exist'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "__complete" -d 'Completion candidates in kubectl\'s plugin protocol (used by kubectl_complete-kruise)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "get" -d 'List workloads with the columns the API server prints for their kind'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "rollout" -d 'Manage rollouts of workloads (status, step, pause, resume, restart, history, undo)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "set" -d 'Set a field of a workload\'s rollout (partition, image, env, resources, serviceaccount)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "scale" -d 'Set the replicas of a workload, optionally naming the pods to remove'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "scaledown" -d 'Remove the named pods of a CloneSet and lower its replicas (kruise-tools spelling)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "exec" -d 'kubectl exec into a pod; -S SIDECAR: into a sidecar (a hot-upgrade pair\'s working half)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "migrate" -d 'Move a Deployment\'s pods to a CloneSet, a few at a time (resumable)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "diff" -d 'What applying a manifest would do: each pod kept, updated in place or recreated, in the controller\'s order and batches, then the object\'s diff (exit 1: a change)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "expose" -d 'Make a Service for a workload\'s pods (its selector and container ports)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "create" -d 'Create an object from another (a Job or BroadcastJob from an AdvancedCronJob)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "run" -d 'Run the controllers in the foreground against the current kubeconfig'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "testenv" -d 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand version" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l only -d 'Install only these kinds (comma-separated, as OpenKruise names them)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l dry-run -d '`client` prints the CRDs (with --manager, the manager\'s objects too) without sending them; `server` sends them with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s o -l output -d 'Print the CRDs in this format instead of one line each (with --dry-run=client and --manager, the manager\'s objects too)' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l timeout -d 'How long to wait for the CRDs to become Established' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l image -d 'The manager\'s image' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l replicas -d 'The manager\'s replicas (one leads, the others stand by and serve the webhooks)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l take-over -d 'Over an OpenKruise install: remove its fail-closed webhook configurations (only when kruise-manager is not running)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s y -l yes -d 'Do not ask for confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l manager -d 'Also run the controllers in the cluster: a Deployment of `kubectl-kruise run` under its own service account and least-privilege RBAC, in the -n namespace (default kruise-system)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand install" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l only -d 'Uninstall only these kinds (comma-separated)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l timeout -d 'How long to wait for the CRDs to be gone' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l manager -d 'Also remove the in-cluster manager (of the -n namespace, default kruise-system)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l keep-crds -d 'With --manager: remove only the manager, not the CRDs'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l force -d 'Delete the CRDs even though objects of them exist (they are deleted with them)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s y -l yes -d 'Do not ask for confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand uninstall" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand completion" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand __complete" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s o -l output -d 'Output format' -r -f -a "wide\t''
json\t''
yaml\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l revisions -d 'With --tree: how many revisions to show' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s A -l all-namespaces -d 'List in every namespace'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l no-headers -d 'Omit the header line'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l tree -d 'Draw one named workload as a tree: its revisions, newest first, and the pods at each'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand get" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "status" -d 'Wait for a rollout to finish, one line per change'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "pause" -d 'Pause the rollout of workloads: no more pods are updated (scaling continues)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "resume" -d 'Resume paused rollouts'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "history" -d 'List the revisions of a workload, or show one with --revision N'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "undo" -d 'Go back to an earlier revision, previewing what happens to each pod'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "restart" -d 'Restart every pod of workloads (recreated, respecting maxUnavailable)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "step" -d 'Release one batch at a time: show the next pods, ask, lower the partition, wait'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and not __fish_seen_subcommand_from status pause resume history undo restart step help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s l -l selector -d 'Every object of the type whose labels match, one after the other' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s w -l watch -d 'Keep watching until done (false: print one snapshot)' -r -f -a "true\t''
false\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l timeout -d 'Give up after this long (0: wait forever)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l until -d 'Where to stop' -r -f -a "complete\t'The completion rule (it already stops at the partition)'
paused\t'Also stop (exit 0) when the rollout is paused'
batch\t'The pods the partition lets through are done (the same rule as complete here)'"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l revision -d 'Watch this revision only; exit 1 if the update revision becomes another one' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l stuck-after -d 'Fail when an in-place update has not finished after this long' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s o -l output -d 'Print the final report (json, yaml) or one JSON object per change (jsonl)' -r -f -a "json\t''
yaml\t''
jsonl\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l exit-status -d 'With --watch=false: exit 0 only when complete (3 failed, 5 paused, 6 progressing)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l fail-on-pause -d 'Exit 5 when the rollout is paused instead of waiting'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l no-fail-fast -d 'Do not fail on failing pods or stuck in-place updates (only the progress deadline)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l plain -d 'Appended lines even on a terminal'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l no-color -d 'No colour in the live view'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s l -l selector -d 'Every object of the type whose labels match this selector' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from pause" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s l -l selector -d 'Every object of the type whose labels match this selector' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from resume" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l revision -d 'Show the pod template of this revision' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l to-revision -d 'The revision to go back to (default: the one before the newest)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s y -l yes -d 'Skip the confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s l -l selector -d 'Every object of the type whose labels match this selector' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s y -l yes -d 'Skip the confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l batch -d 'Pods per batch: a number or a percentage of replicas (default: maxUnavailable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l timeout -d 'Give up on a batch after this long (0: wait forever)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l stuck-after -d 'Fail a batch whose in-place update has not finished after this long' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l dry-run -d '`client` prints the next batch and the patch without sending it; `server` sends the first batch\'s patch with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s y -l yes -d 'Do not ask before each batch'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l plain -d 'Appended lines even on a terminal'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l no-color -d 'No colour in the live view'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from step" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "status" -d 'Wait for a rollout to finish, one line per change'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "pause" -d 'Pause the rollout of workloads: no more pods are updated (scaling continues)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "resume" -d 'Resume paused rollouts'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "history" -d 'List the revisions of a workload, or show one with --revision N'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "undo" -d 'Go back to an earlier revision, previewing what happens to each pod'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "restart" -d 'Restart every pod of workloads (recreated, respecting maxUnavailable)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "step" -d 'Release one batch at a time: show the next pods, ask, lower the partition, wait'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "partition" -d 'Keep N pods (or P% of them) at the old revision; shows which pods update next'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "image" -d 'Change container images (CONTAINER=IMAGE ...)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "env" -d 'Set or remove environment variables of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "resources" -d 'Set resource limits and requests of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "serviceaccount" -d 'Set the pod template\'s service account'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "sa" -d 'Set the pod template\'s service account'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and not __fish_seen_subcommand_from partition image env resources serviceaccount sa help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s y -l yes -d 'Skip the confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from partition" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from image" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s e -l env -d 'A KEY=VALUE to set (repeatable; `-` reads KEY=VALUE lines from stdin)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s c -l containers -d 'The containers to change (wildcards: `*`, `?`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l from -d 'Set a variable for each key of this Secret or ConfigMap (secret/NAME, configmap/NAME)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l keys -d 'Only these keys of --from (comma-separated)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l prefix -d 'Prepend this to the name of every variable set' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l overwrite -d 'Whether a variable that has a value may be given another' -r -f -a "true\t''
false\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l list -d 'Print the variables (after the changes given) instead of writing them'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l resolve -d 'With --list: print the values of Secret and ConfigMap references'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from env" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s c -l containers -d 'The containers to change (wildcards: `*`, `?`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l limits -d 'Limits to set, e.g. cpu=200m,memory=512Mi' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l requests -d 'Requests to set, e.g. cpu=100m,memory=256Mi' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from resources" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from serviceaccount" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from sa" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "partition" -d 'Keep N pods (or P% of them) at the old revision; shows which pods update next'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "image" -d 'Change container images (CONTAINER=IMAGE ...)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "env" -d 'Set or remove environment variables of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "resources" -d 'Set resource limits and requests of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "serviceaccount" -d 'Set the pod template\'s service account'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand set; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s o -l output -d 'Print the updated object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l replicas -d 'The new number of replicas (default with --delete: current minus the pods named)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l delete -d 'Pods to remove, comma separated (CloneSet only)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s y -l yes -d 'Skip the confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scale" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l pods -d 'Pods to remove, comma separated' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l dry-run -d '`client` prints the patch without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s y -l yes -d 'Skip the confirmation'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand scaledown" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s S -l sidecar -d 'The sidecar, by its SidecarSet name (a hot-upgrade pair: its working half)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s c -l container -d 'The container, by its own name' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s i -l stdin -d 'Pass stdin to the container'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s t -l tty -d 'Stdin is a TTY'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand exec" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l from -d 'The Deployment to take them from (deployment/NAME)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l replicas -d 'How many pods to move (default: the Deployment\'s replicas when the migration starts)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l max-surge -d 'Pods added before as many are removed: a number or a percentage of the total' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l timeout -d 'How long one step may wait for its pods' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l dry-run -d '`client` prints the steps and writes nothing' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand migrate" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s f -l filename -d 'The manifest (`-` for stdin)' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand diff" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l name -d 'The Service\'s name (default: the workload\'s)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l port -d 'The port the Service serves (default: the template\'s container ports)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l target-port -d 'The container port (number or name) the Service sends to (default: the port)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l protocol -d 'TCP, UDP or SCTP (default: the container port\'s, else TCP)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l type -d 'The Service\'s type' -r -f -a "ClusterIP\t''
NodePort\t''
LoadBalancer\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l selector -d 'A selector of labels (k=v,k2=v2) instead of the workload\'s' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s l -l labels -d 'Labels of the Service (k=v,k2=v2) instead of the workload\'s' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l dry-run -d '`client` prints the Service without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s o -l output -d 'Print the created Service in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand expose" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -f -a "job" -d 'Create a Job (or BroadcastJob) from an AdvancedCronJob\'s template, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -f -a "broadcastjob" -d 'Create a BroadcastJob from an AdvancedCronJob\'s broadcastJobTemplate, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -f -a "bcj" -d 'Create a BroadcastJob from an AdvancedCronJob\'s broadcastJobTemplate, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and not __fish_seen_subcommand_from job broadcastjob bcj help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l from -d 'The AdvancedCronJob to take the template from (acj/NAME)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l dry-run -d '`client` prints the object without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s o -l output -d 'Print the created object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from job" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l from -d 'The AdvancedCronJob to take the template from (acj/NAME)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l dry-run -d '`client` prints the object without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s o -l output -d 'Print the created object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from broadcastjob" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l from -d 'The AdvancedCronJob to take the template from (acj/NAME)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l dry-run -d '`client` prints the object without sending it; `server` sends it with dry-run' -r -f -a "none\t''
client\t''
server\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s o -l output -d 'Print the created object in this format instead of one line' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from bcj" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from help" -f -a "job" -d 'Create a Job (or BroadcastJob) from an AdvancedCronJob\'s template, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from help" -f -a "broadcastjob" -d 'Create a BroadcastJob from an AdvancedCronJob\'s broadcastJobTemplate, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand create; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l controllers -d 'Controllers to start, comma separated (default: all that exist)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l qps -d 'Client requests per second (0: no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l burst -d 'Client burst above --qps' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l workers -d 'Concurrent reconciles per controller: N, or KIND=N for one controller (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l metrics-addr -d 'Also serve /metrics, /healthz and /readyz over plain HTTP on this address (e.g. 127.0.0.1:8080)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l webhooks -d 'Serve and register the admission webhooks (--webhooks=false: neither)' -r -f -a "true\t''
false\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l webhook-addr -d 'Where the HTTPS server listens (port 0: any free port)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l webhook-host -d 'The host (IP or DNS name) the API server dials to reach the webhooks' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l webhook-service -d 'In-cluster: the configurations point at this Service instead of a URL' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l leader-elect -d 'Hold a Lease so that only one run writes at a time (--leader-elect=false: no lease)' -r -f -a "true\t''
false\t''"
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l leader-elect-namespace -d 'Namespace of the Lease (default: the -n namespace, else `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l leader-elect-name -d 'Name of the Lease' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l leader-elect-lease-duration -d 'How long the Lease holds without a renewal (a standby takes over after it)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l stall-after -d 'A controller with an object waiting this long, and no reconcile finished in as long, is stalled' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l feature-gates -d 'OpenKruise\'s feature gates, as kruise-manager takes them (NAME=true|false,...; AllAlpha, AllBeta)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand run" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "up" -d 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "down" -d 'Stop the control plane and remove its run directory'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "status" -d 'Say whether a control plane is running, and where'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "restart-apiserver" -d 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "serve" -d 'Run the control plane in the foreground (what `up` starts in the background)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and not __fish_seen_subcommand_from up down status restart-apiserver serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l run-dir -d 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l bin-dir -d 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l nodes -d 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l node-label -d 'A label of the simulated nodes, KEY=V1[,V2...] (repeatable): node i gets value i mod the number of values (node-pool=pool-a,pool-b,pool-c)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l node-taint -d 'A taint of the simulated nodes, KEY[=VALUE]:EFFECT, on every node or on those listed after @ (dedicated=gpu:NoSchedule@4,5; repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l start-delay -d 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l image-pull-delay -d 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l completion-delay -d 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l same-image -d 'Two tags of one image digest, IMAGE=SAME (repeatable): the kubelet reports SAME\'s imageID for IMAGE' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l exits-without-command -d 'An image whose default command exits at once (repeatable): a container that runs it without a `command` crashes (CrashLoopBackOff)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l missing-image -d 'An image no registry has (repeatable): pulling it fails (ImagePullBackOff), on start and on an in-place change' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l timeout -d 'How long to wait for readiness' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l builtin-workload-controllers -d 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l audit -d 'Write the API server\'s audit log of every write (metadata level, JSON lines) to RUN_DIR/logs/audit.log: who wrote what, by user agent'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from up" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l run-dir -d 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from down" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l run-dir -d 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l run-dir -d 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l timeout -d 'How long to wait for the restarted API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from restart-apiserver" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l run-dir -d 'Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l bin-dir -d 'Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler (printed by tests/testenv/build.sh)' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l nodes -d 'Number of simulated nodes (spread over zone-a, zone-b, zone-c)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l node-label -d 'A label of the simulated nodes, KEY=V1[,V2...] (repeatable): node i gets value i mod the number of values (node-pool=pool-a,pool-b,pool-c)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l node-taint -d 'A taint of the simulated nodes, KEY[=VALUE]:EFFECT, on every node or on those listed after @ (dedicated=gpu:NoSchedule@4,5; repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l start-delay -d 'Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l image-pull-delay -d 'Default image pull delay, paid on start and on an in-place image change (per pod: sim.kubectl-kruise.io/image-pull-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l completion-delay -d 'Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l same-image -d 'Two tags of one image digest, IMAGE=SAME (repeatable): the kubelet reports SAME\'s imageID for IMAGE' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l exits-without-command -d 'An image whose default command exits at once (repeatable): a container that runs it without a `command` crashes (CrashLoopBackOff)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l missing-image -d 'An image no registry has (repeatable): pulling it fails (ImagePullBackOff), on start and on an in-place change' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l kubeconfig -d 'Path to the kubeconfig file to use' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -s n -l namespace -d 'Namespace for namespaced objects (default: the context\'s, then `default`)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l as -d 'User to impersonate for the operation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l certificate-authority -d 'Path to a certificate file for the certificate authority' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l client-certificate -d 'Path to a client certificate file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l client-key -d 'Path to a client key file for TLS' -r -F
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l tls-server-name -d 'Server name to use for server certificate validation' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l request-timeout -d 'Limit for one API request, e.g. 30s (0 = no limit)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -s v -l v -d 'Log verbosity 0-9 (logs go to stderr)' -r
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l builtin-workload-controllers -d 'Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l audit -d 'Write the API server\'s audit log of every write (metadata level, JSON lines) to RUN_DIR/logs/audit.log: who wrote what, by user agent'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "up" -d 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "down" -d 'Stop the control plane and remove its run directory'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "status" -d 'Say whether a control plane is running, and where'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "restart-apiserver" -d 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Run the control plane in the foreground (what `up` starts in the background)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand testenv; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "version" -d 'Print the client version and, when the API server answers, the server version'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "install" -d 'Install (or update) the apps.kruise.io CRDs with server-side apply (--manager: and run the controllers in the cluster)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "uninstall" -d 'Remove the apps.kruise.io CRDs (--manager: and the in-cluster controllers); refuses while custom resources of them exist'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "__complete" -d 'Completion candidates in kubectl\'s plugin protocol (used by kubectl_complete-kruise)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "get" -d 'List workloads with the columns the API server prints for their kind'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "rollout" -d 'Manage rollouts of workloads (status, step, pause, resume, restart, history, undo)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "set" -d 'Set a field of a workload\'s rollout (partition, image, env, resources, serviceaccount)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "scale" -d 'Set the replicas of a workload, optionally naming the pods to remove'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "scaledown" -d 'Remove the named pods of a CloneSet and lower its replicas (kruise-tools spelling)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "exec" -d 'kubectl exec into a pod; -S SIDECAR: into a sidecar (a hot-upgrade pair\'s working half)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "migrate" -d 'Move a Deployment\'s pods to a CloneSet, a few at a time (resumable)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "diff" -d 'What applying a manifest would do: each pod kept, updated in place or recreated, in the controller\'s order and batches, then the object\'s diff (exit 1: a change)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "expose" -d 'Make a Service for a workload\'s pods (its selector and container ports)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "create" -d 'Create an object from another (a Job or BroadcastJob from an AdvancedCronJob)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "run" -d 'Run the controllers in the foreground against the current kubeconfig'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "testenv" -d 'Local control plane for demos and tests (etcd, kube-apiserver, controller-manager, scheduler built from Go modules, with simulated nodes)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and not __fish_seen_subcommand_from version install uninstall completion __complete get rollout set scale scaledown exec migrate diff expose create run testenv help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "status" -d 'Wait for a rollout to finish, one line per change'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "pause" -d 'Pause the rollout of workloads: no more pods are updated (scaling continues)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "resume" -d 'Resume paused rollouts'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "history" -d 'List the revisions of a workload, or show one with --revision N'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "undo" -d 'Go back to an earlier revision, previewing what happens to each pod'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "restart" -d 'Restart every pod of workloads (recreated, respecting maxUnavailable)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "step" -d 'Release one batch at a time: show the next pods, ask, lower the partition, wait'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from set" -f -a "partition" -d 'Keep N pods (or P% of them) at the old revision; shows which pods update next'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from set" -f -a "image" -d 'Change container images (CONTAINER=IMAGE ...)'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from set" -f -a "env" -d 'Set or remove environment variables of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from set" -f -a "resources" -d 'Set resource limits and requests of the pod template\'s containers'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from set" -f -a "serviceaccount" -d 'Set the pod template\'s service account'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from create" -f -a "job" -d 'Create a Job (or BroadcastJob) from an AdvancedCronJob\'s template, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from create" -f -a "broadcastjob" -d 'Create a BroadcastJob from an AdvancedCronJob\'s broadcastJobTemplate, now'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from testenv" -f -a "up" -d 'Start the control plane in the background (or reuse the running one) and print `export KRUISE_TESTENV_KUBECONFIG=...` for eval'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from testenv" -f -a "down" -d 'Stop the control plane and remove its run directory'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from testenv" -f -a "status" -d 'Say whether a control plane is running, and where'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from testenv" -f -a "restart-apiserver" -d 'Restart the kube-apiserver of a running control plane (same port, same etcd data) and wait until it is ready again: for fault-tolerance tests'
complete -c kubectl-kruise -n "__fish_kubectl_kruise_using_subcommand help; and __fish_seen_subcommand_from testenv" -f -a "serve" -d 'Run the control plane in the foreground (what `up` starts in the background)'
