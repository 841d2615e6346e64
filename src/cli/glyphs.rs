//! Icons and colour for terminal views (docs/cli.md, output: icons and colour).
//!
//! Invariants: an icon is always paired with a word by the caller, so colour is never the
//! only signal; colour is on only for a terminal, and off with `--no-color`, `NO_COLOR`
//! (any value) or `TERM=dumb`; when the locale is not UTF-8 the ASCII set is used.

/// The icon set of one view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyphs {
    pub done: &'static str,
    pub progress: &'static str,
    pub paused: &'static str,
    pub failed: &'static str,
    pub warning: &'static str,
    pub unknown: &'static str,
    pub idle: &'static str,
    pub unicode: bool,
}

pub const UNICODE: Glyphs = Glyphs {
    done: "✔",
    progress: "◌",
    paused: "॥",
    failed: "✖",
    warning: "⚠",
    unknown: "?",
    idle: "•",
    unicode: true,
};

pub const ASCII: Glyphs = Glyphs {
    done: "ok",
    progress: "..",
    paused: "||",
    failed: "x",
    warning: "!",
    unknown: "?",
    idle: "-",
    unicode: false,
};

/// Is the locale UTF-8? The first set of `LC_ALL`, `LC_CTYPE`, `LANG` decides.
pub fn unicode_locale(env: impl Fn(&str) -> Option<String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| env(k).filter(|v| !v.is_empty()))
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// The glyphs for this process's locale.
pub fn for_locale() -> Glyphs {
    if unicode_locale(|k| std::env::var(k).ok()) {
        UNICODE
    } else {
        ASCII
    }
}

/// Should a stream that `is_terminal` get colour?
pub fn colour(is_terminal: bool, no_color_flag: bool, env: impl Fn(&str) -> Option<String>) -> bool {
    is_terminal && !no_color_flag && env("NO_COLOR").is_none() && env("TERM").as_deref() != Some("dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_first_locale_variable_set_decides() {
        assert!(unicode_locale(env(&[("LANG", "en_US.UTF-8")])));
        assert!(unicode_locale(env(&[("LC_ALL", "C.utf8"), ("LANG", "C")])));
        assert!(!unicode_locale(env(&[("LC_ALL", "C"), ("LANG", "en_US.UTF-8")])));
        assert!(unicode_locale(env(&[("LC_ALL", ""), ("LANG", "en_US.UTF-8")])));
        assert!(!unicode_locale(env(&[])));
    }

    #[test]
    fn colour_needs_a_terminal_and_no_opt_out() {
        assert!(colour(true, false, env(&[("TERM", "xterm")])));
        assert!(!colour(false, false, env(&[])));
        assert!(!colour(true, true, env(&[])));
        assert!(!colour(true, false, env(&[("NO_COLOR", "")])));
        assert!(!colour(true, false, env(&[("TERM", "dumb")])));
    }
}
