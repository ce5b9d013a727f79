//! `exec:` agents: a child process reading one JSON message per line on its stdin and writing one reply
//! per line on its stdout. Its stderr is passed through (the engine's own stderr). A writer thread and a
//! reader thread keep the engine from ever blocking on the child: a message the child does not read, a
//! reply that does not come, a line that never ends, output that floods: each is a fault with a bound.
//! A reply that comes after its deadline is read and dropped when it arrives (the child answers each
//! `act` once, in order). The child runs in a process group of its own; when the match ends its stdin is
//! closed, it has [`EXIT_GRACE`] to exit, and then the group is killed; it is always reaped.
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio as Piped};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use super::protocol::{self, Parsed, Reply, MAX_REPLY_BYTES};
use super::{Fault, FaultKind, Transport};

/// The first `act` also waits this long for the process to start (an interpreter loading, say).
pub const STARTUP_GRACE: Duration = Duration::from_secs(5);
/// How long a child has to exit once its stdin is closed at the end of a match.
pub const EXIT_GRACE: Duration = Duration::from_secs(1);
/// Lines read ahead of the engine: beyond that the child blocks on its own output.
const LINES_AHEAD: usize = 16;
/// Messages queued for a child but not yet written (it is not reading its stdin) before a new one is
/// refused as a timeout rather than queued.
const MESSAGES_BEHIND: usize = 3;

/// What the reader thread saw.
enum Line {
    Text(String),
    /// A line longer than [`MAX_REPLY_BYTES`] (the rest of the output is not read).
    TooLong,
    /// End of output (or an error reading it).
    Closed,
}

/// A running child and the two threads talking to it.
struct Running {
    child: Child,
    /// Messages for the writer thread (dropping it closes the child's stdin once the queue is written).
    input: Option<Sender<Vec<u8>>>,
    /// Messages queued and not yet written.
    behind: Arc<AtomicUsize>,
    output: Receiver<Line>,
}

/// An agent behind a child process.
pub struct Stdio {
    argv: Vec<String>,
    run: Option<Running>,
    /// Why the agent can no longer be asked, once it cannot.
    gone: Option<String>,
    /// Replies still owed for `act`s whose deadline passed: dropped when they come.
    owed: usize,
    /// Whether an `act` has been sent (the first also waits out the start-up).
    asked: bool,
}

impl Stdio {
    /// The agent started from `argv` (started with the first message).
    pub fn new(argv: Vec<String>) -> Self {
        Stdio {
            argv,
            run: None,
            gone: None,
            owed: 0,
            asked: false,
        }
    }

    fn spawn(&mut self) -> Result<(), String> {
        let mut cmd = Command::new(&self.argv[0]);
        cmd.args(&self.argv[1..])
            .stdin(Piped::piped())
            .stdout(Piped::piped())
            .stderr(Piped::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group, so the whole group can be stopped (a shell script's children too).
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.argv[0]))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            reap(&mut child, Duration::ZERO);
            return Err("the agent process has no stdin or stdout".into());
        };
        let (input, to_write) = channel::<Vec<u8>>();
        let (lines, output) = sync_channel::<Line>(LINES_AHEAD);
        let behind = Arc::new(AtomicUsize::new(0));
        let written = behind.clone();
        let started = thread::Builder::new()
            .name("agent-stdin".into())
            .spawn(move || write_all(stdin, to_write, &written))
            .and_then(|_| {
                thread::Builder::new()
                    .name("agent-stdout".into())
                    .spawn(move || read_lines(stdout, lines))
            });
        if let Err(e) = started {
            reap(&mut child, Duration::ZERO);
            return Err(format!("cannot start a thread for the agent: {e}"));
        }
        self.run = Some(Running {
            child,
            input: Some(input),
            behind,
            output,
        });
        Ok(())
    }

    /// Queues `msg` for the child.
    fn send(&mut self, msg: &Json) -> Result<(), Fault> {
        if let Some(why) = &self.gone {
            return Err(Fault::new(FaultKind::Crashed, why.clone()));
        }
        let Some(run) = &mut self.run else {
            return Err(Fault::new(FaultKind::Crashed, "the agent is not running"));
        };
        if run.behind.load(Ordering::Acquire) >= MESSAGES_BEHIND {
            return Err(Fault::new(
                FaultKind::Timeout,
                "the agent has not read its earlier messages",
            ));
        }
        let mut bytes = serde_json::to_vec(msg).unwrap_or_default();
        bytes.push(b'\n');
        run.behind.fetch_add(1, Ordering::AcqRel);
        match run.input.as_ref().map(|i| i.send(bytes)) {
            Some(Ok(())) => Ok(()),
            _ => Err(self.died()),
        }
    }

    /// The child stopped talking: why, as a fault; it is reaped and asked no more.
    fn died(&mut self) -> Fault {
        let why = match self.run.as_mut().map(|r| r.child.try_wait()) {
            Some(Ok(Some(status))) => format!("the agent process exited ({status})"),
            _ => "the agent closed its input or output".to_string(),
        };
        self.stop(&why);
        Fault::new(FaultKind::Crashed, why)
    }

    /// Stops the child now (if it runs) and asks it no more.
    fn stop(&mut self, why: &str) {
        if let Some(mut run) = self.run.take() {
            run.input = None;
            reap(&mut run.child, Duration::ZERO);
        }
        self.gone.get_or_insert_with(|| why.to_string());
    }
}

impl Transport for Stdio {
    fn start(&mut self, msg: &Json) {
        if self.run.is_none() && self.gone.is_none() {
            if let Err(why) = self.spawn() {
                self.gone = Some(why);
                return;
            }
        }
        // A child that fails here fails its first `act` the same way.
        let _ = self.send(msg);
    }

    fn ask(&mut self, msg: &Json, deadline: Duration) -> Result<Reply, Fault> {
        self.send(msg)?;
        let wait = if self.asked {
            deadline
        } else {
            deadline + STARTUP_GRACE
        };
        self.asked = true;
        let until = Instant::now() + wait;
        loop {
            let Some(run) = &self.run else {
                return Err(self.died());
            };
            let left = until.saturating_duration_since(Instant::now());
            match run.output.recv_timeout(left) {
                Ok(Line::Text(text)) => match protocol::parse(&text) {
                    Parsed::Greeting => continue,
                    _ if self.owed > 0 => self.owed -= 1,
                    Parsed::Reply(r) => return Ok(r),
                    Parsed::Malformed(why) => return Err(Fault::new(FaultKind::Malformed, why)),
                },
                Ok(Line::TooLong) => {
                    let why = format!(
                        "a reply line longer than {MAX_REPLY_BYTES} bytes: the agent is stopped"
                    );
                    self.stop(&why);
                    return Err(Fault::new(FaultKind::Malformed, why));
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
                Err(RecvTimeoutError::Timeout) => {
                    self.owed += 1;
                    return Err(Fault::new(
                        FaultKind::Timeout,
                        format!("no reply within {} ms", deadline.as_millis()),
                    ));
                }
            }
        }
    }

    fn end(&mut self, msg: &Json) {
        if self.gone.is_none() {
            let _ = self.send(msg);
        }
        if let Some(mut run) = self.run.take() {
            // Closing stdin (once `end` is written) tells the child to exit.
            run.input = None;
            reap(&mut run.child, EXIT_GRACE);
        }
        self.gone
            .get_or_insert_with(|| "the match is over".to_string());
    }
}

impl Drop for Stdio {
    fn drop(&mut self) {
        self.stop("the agent was let go");
    }
}

/// Waits up to `grace` for `child` to exit, then kills its process group, and reaps it.
fn reap(child: &mut Child, grace: Duration) {
    let until = Instant::now() + grace;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return,
            Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
            _ => break,
        }
    }
    #[cfg(unix)]
    {
        // The child has not been reaped, so its id (its group's id) cannot have been reused yet.
        let group = -(child.id() as libc::pid_t);
        // SAFETY: kill(2) with a negative id signals that process group; it touches no memory of ours.
        unsafe {
            libc::kill(group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The writer thread: writes each message in turn; stops at the first error or when the sender is gone,
/// closing the child's stdin.
fn write_all(mut stdin: impl Write, messages: Receiver<Vec<u8>>, behind: &AtomicUsize) {
    for msg in messages {
        if stdin.write_all(&msg).and_then(|()| stdin.flush()).is_err() {
            break;
        }
        behind.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The reader thread: passes on each line; stops at the end of the output, at a line over the limit, or
/// when nobody listens any more.
fn read_lines(stdout: impl Read, lines: SyncSender<Line>) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    loop {
        let line = match read_line(&mut r, MAX_REPLY_BYTES) {
            Ok(Some(Some(text))) => Line::Text(text),
            Ok(Some(None)) => Line::TooLong,
            Ok(None) | Err(_) => Line::Closed,
        };
        let last = !matches!(line, Line::Text(_));
        if lines.send(line).is_err() || last {
            return;
        }
    }
}

/// One line without its end (`\n` or `\r\n`), invalid UTF-8 replaced; `Some(None)` for a line over `max`
/// bytes, `None` at the end of the output.
fn read_line(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<Option<String>>> {
    let mut buf = Vec::new();
    loop {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            return Ok((!buf.is_empty()).then(|| Some(text(buf))));
        }
        let (take, done) = match avail.iter().position(|b| *b == b'\n') {
            Some(i) => (i, true),
            None => (avail.len(), false),
        };
        if buf.len() + take > max {
            return Ok(Some(None));
        }
        buf.extend_from_slice(&avail[..take]);
        r.consume(take + usize::from(done));
        if done {
            return Ok(Some(Some(text(buf))));
        }
    }
}

fn text(mut buf: Vec<u8>) -> String {
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Option<String>> {
        let mut r = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, max).unwrap() {
            let stop = l.is_none();
            out.push(l);
            if stop {
                break;
            }
        }
        out
    }

    #[test]
    fn lines_are_read_within_the_limit() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nlast", 10),
            [
                Some("ab".to_string()),
                Some("cd".into()),
                Some("".into()),
                Some("last".into())
            ]
        );
        assert_eq!(lines(b"0123456789\nx", 10).len(), 2);
        assert_eq!(lines(b"0123456789a\nx", 10), [None]);
        assert_eq!(lines(b"\xff\n", 10), [Some("\u{fffd}".to_string())]);
    }
}
