//! Running the CLI on a pseudo-terminal (util-linux `script`) and reading what a user
//! would see: the raw output is replayed through a VT100 emulator (`vt100`), giving the
//! screen after every chunk of output (so a live view's frames can be asserted too).
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// What a terminal session produced.
pub struct Session {
    pub code: i32,
    pub raw: Vec<u8>,
    pub rows: u16,
    pub cols: u16,
}

impl Session {
    /// The screen contents after each chunk of `chunk` bytes of output, in order.
    pub fn frames(&self, chunk: usize) -> Vec<String> {
        let mut parser = self.parser();
        let mut frames = Vec::new();
        for piece in self.raw.chunks(chunk.max(1)) {
            parser.process(piece);
            let screen = rows(parser.screen(), self.cols);
            if frames.last() != Some(&screen) {
                frames.push(screen);
            }
        }
        frames
    }

    /// The screen when the command ended.
    pub fn screen(&self) -> String {
        let mut parser = self.parser();
        parser.process(&self.raw);
        rows(parser.screen(), self.cols)
    }

    fn parser(&self) -> vt100::Parser {
        let size = |n: u16| std::num::NonZeroU16::new(n).unwrap_or(std::num::NonZeroU16::MIN);
        vt100::Parser::new(size(self.rows), size(self.cols), 0)
    }

    /// The raw output as text (escape sequences included).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }
}

/// The screen's rows, one per line (a row filled to the last column stays one line).
fn rows(screen: &vt100::Screen, cols: u16) -> String {
    let rows: Vec<String> = screen.rows(0, cols).map(|r| r.trim_end().to_string()).collect();
    rows.join("\n").trim_end().to_string()
}

/// Runs `command` (a shell line) on a `rows` x `cols` terminal with a UTF-8 locale. Each
/// `(delay, keys)` is typed after waiting `delay`; stdin closes after the last one.
pub fn run(command: &str, rows: u16, cols: u16, typed: &[(Duration, &str)]) -> Session {
    let line = format!("stty rows {rows} cols {cols}; {command}");
    let mut child = Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut raw = Vec::new();
        let _ = stdout.read_to_end(&mut raw);
        raw
    });
    for (delay, keys) in typed {
        std::thread::sleep(*delay);
        let _ = stdin.write_all(keys.as_bytes());
        let _ = stdin.flush();
    }
    let status = child.wait().expect("wait");
    drop(stdin);
    let raw = reader.join().expect("reader");
    Session {
        code: status.code().unwrap_or(-1),
        raw,
        rows,
        cols,
    }
}
