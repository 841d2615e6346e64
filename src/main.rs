fn main() -> std::process::ExitCode {
    kubectl_kruise::cli::main()
}
