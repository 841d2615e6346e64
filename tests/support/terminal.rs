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

/// Runs `command` like [`run`], answering prompts: for each `(prompt, keys)` in order, it
/// waits until `prompt` has appeared in the output once more, then types `keys`. Gives up
/// waiting for a prompt after `patience` (the command then runs on with stdin closed).
pub fn run_answering(
    command: &str,
    rows: u16,
    cols: u16,
    answers: &[(&str, &str)],
    patience: Duration,
) -> Session {
    let (mut child, mut stdin, output) = spawn(command, rows, cols);
    let mut raw: Vec<u8> = Vec::new();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (prompt, keys) in answers {
        let seen = seen.entry(prompt).or_default();
        let deadline = std::time::Instant::now() + patience;
        loop {
            let text = String::from_utf8_lossy(&raw);
            if text.matches(prompt).count() > *seen {
                *seen += 1;
                break;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match output.recv_timeout(left.min(Duration::from_millis(200))) {
                Ok(chunk) => raw.extend(chunk),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !left.is_zero() => {}
                Err(_) => break,
            }
        }
        std::thread::sleep(Duration::from_millis(300));
        let _ = stdin.write_all(keys.as_bytes());
        let _ = stdin.flush();
    }
    let status = child.wait().expect("wait");
    drop(stdin);
    raw.extend(output.iter().flatten());
    Session {
        code: status.code().unwrap_or(-1),
        raw,
        rows,
        cols,
    }
}

fn spawn(
    command: &str,
    rows: u16,
    cols: u16,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<Vec<u8>>,
) {
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
    let stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    (child, stdin, rx)
}

/// Runs `command` (a shell line) on a `rows` x `cols` terminal with a UTF-8 locale. Each
/// `(delay, keys)` is typed after waiting `delay`; stdin closes after the last one.
pub fn run(command: &str, rows: u16, cols: u16, typed: &[(Duration, &str)]) -> Session {
    let (mut child, mut stdin, output) = spawn(command, rows, cols);
    for (delay, keys) in typed {
        std::thread::sleep(*delay);
        let _ = stdin.write_all(keys.as_bytes());
        let _ = stdin.flush();
    }
    let status = child.wait().expect("wait");
    drop(stdin);
    Session {
        code: status.code().unwrap_or(-1),
        raw: output.iter().flatten().collect(),
        rows,
        cols,
    }
}
