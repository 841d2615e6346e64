//! `kubectl kruise completion SHELL`: static completion scripts generated from the clap
//! command tree. The copies under `completions/` are checked against the tree by a test;
//! regenerate them with `KRUISE_UPDATE_COMPLETIONS=1 cargo test --lib completion`.
use clap::{Command, ValueEnum};
use clap_complete::Shell;

/// Shells we ship scripts for, with the file name each script has under `completions/`.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "kubectl-kruise.bash"),
    (Shell::Zsh, "_kubectl-kruise"),
    (Shell::Fish, "kubectl-kruise.fish"),
    (Shell::PowerShell, "kubectl-kruise.ps1"),
    (Shell::Elvish, "kubectl-kruise.elv"),
];

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

impl From<ShellArg> for Shell {
    fn from(shell: ShellArg) -> Shell {
        match shell {
            ShellArg::Bash => Shell::Bash,
            ShellArg::Zsh => Shell::Zsh,
            ShellArg::Fish => Shell::Fish,
            ShellArg::Powershell => Shell::PowerShell,
            ShellArg::Elvish => Shell::Elvish,
        }
    }
}

pub const AFTER_HELP: &str = "Install:\n  \
bash:        kubectl-kruise completion bash > ~/.local/share/bash-completion/completions/kubectl-kruise\n  \
zsh:         kubectl-kruise completion zsh > \"${fpath[1]}/_kubectl-kruise\"\n  \
fish:        kubectl-kruise completion fish > ~/.config/fish/completions/kubectl-kruise.fish\n  \
powershell:  kubectl-kruise completion powershell | Out-String | Invoke-Expression\n  \
elvish:      kubectl-kruise completion elvish >> ~/.config/elvish/rc.elv\n\n\
Examples:\n  kubectl kruise completion bash\n  kubectl kruise completion zsh > ~/.zfunc/_kubectl-kruise";

/// The completion script for `shell`, for the executable `kubectl-kruise`.
pub fn script(mut command: Command, shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "kubectl-kruise", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_shipped_completion_scripts_match_the_command_tree() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
        let update = std::env::var_os("KRUISE_UPDATE_COMPLETIONS").is_some();
        for (shell, file) in SHELLS {
            let want = script(crate::cli::Cli::command(), *shell);
            let path = dir.join(file);
            if update {
                std::fs::create_dir_all(&dir).expect("create completions/");
                std::fs::write(&path, &want).expect("write completion script");
                continue;
            }
            let have = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                have == want,
                "{} is out of date with the command tree; run KRUISE_UPDATE_COMPLETIONS=1 cargo test --lib completion",
                path.display()
            );
        }
    }
}
