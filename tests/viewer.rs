//! The match viewer: `replay --frames` and `view` on the shipped default scenario, and the
//! page driven in headless Chromium through its own controls (real mouse clicks and key
//! presses over the DevTools protocol), checked from the DOM and a screenshot.
//!
//! Chromium is Debian's `chromium` (`.ci/test` installs it when missing). Without it the
//! browser test prints why it skipped, unless `BOTARENA_REQUIRE_BROWSER` is set (CI sets
//! it): then it fails, saying how to install it.

mod common;

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

use common::{TempDir, bin, root};

/// Records the default scenario and returns (replay path, `run --json` report).
fn record_default(dir: &Path) -> (PathBuf, Value) {
    let replay = dir.join("default.replay");
    let out = bin()
        .args(["run", "scenarios/default.toml", "--json", "--record"])
        .arg(&replay)
        .output()
        .expect("botarena runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("run --json is JSON");
    (replay, report)
}

/// Runs botarena with `args`, expecting success; returns stdout.
fn ok(args: &[&std::ffi::OsStr]) -> String {
    let out = bin().args(args).output().expect("botarena runs");
    assert!(
        out.status.success(),
        "{:?}: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs botarena with `args`, expecting failure; returns stderr.
fn fails(args: &[&std::ffi::OsStr]) -> String {
    let out = bin().args(args).output().expect("botarena runs");
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// Sums a delta series up to tick `t`.
fn at_delta(series: &Value, t: usize) -> i64 {
    series.as_array().expect("delta series")[..=t]
        .iter()
        .map(|v| v.as_i64().expect("integer"))
        .sum()
}

/// The value of a change list at tick `t`.
fn at_change(list: &Value, t: u64) -> Value {
    list.as_array()
        .expect("change list")
        .iter()
        .rev()
        .find(|e| e[0].as_u64().expect("tick") <= t)
        .map(|e| e[1].clone())
        .unwrap_or(Value::Null)
}

#[test]
fn frames_follow_the_replay_and_end_on_its_scoreboard() {
    let dir = TempDir::new("frames");
    let (replay, report) = record_default(&dir);
    let frames_file = dir.join("default.json");
    ok(&[
        os("replay"),
        replay.as_os_str(),
        os("--frames"),
        frames_file.as_os_str(),
    ]);
    let text = std::fs::read_to_string(&frames_file).expect("frames written");
    let f: Value = serde_json::from_str(&text).expect("frames are JSON");
    assert_eq!(f["format"], "botarena-frames");
    assert_eq!(f["version"], 1);
    let ticks = report["ticks"].as_u64().expect("ticks");
    assert_eq!(f["ticks"].as_u64(), Some(ticks));
    assert_eq!(
        f["final_hash"].as_str(),
        report["final_hash"].as_str(),
        "frames name the run's final hash"
    );
    let players = f["players"].as_array().expect("players");
    let reported = report["players"].as_array().expect("report players");
    assert_eq!(players.len(), reported.len());
    for (p, r) in players.iter().zip(reported) {
        assert_eq!(p["name"], r["name"]);
        // Every series has a value per state, tick 0 to the last.
        for k in ["x", "y", "z", "vx", "vy", "vz", "yaw", "pitch"] {
            assert_eq!(
                p[k].as_array().map(|a| a.len() as u64),
                Some(ticks + 1),
                "{k}"
            );
        }
        // The last frame is where the run left the player (positions quantised to units).
        let origin = r["origin"].as_array().expect("origin");
        for (k, o) in ["x", "y", "z"].iter().zip(origin) {
            let want = o.as_f64().expect("coordinate").round() as i64;
            assert_eq!(at_delta(&p[*k], ticks as usize), want, "{} {k}", r["name"]);
        }
        assert_eq!(at_change(&p["frags"], ticks), r["stats"]["frags"]);
        assert_eq!(at_change(&p["deaths"], ticks), r["stats"]["deaths"]);
        assert_eq!(
            at_change(&p["alive"], ticks).as_u64(),
            Some(r["alive"].as_bool().expect("alive") as u64)
        );
        assert_eq!(
            at_change(&p["health"], ticks).as_i64(),
            Some(r["health"].as_f64().expect("health").round() as i64)
        );
    }
    let board = f["scoreboard"].as_array().expect("scoreboard");
    for (s, r) in board.iter().zip(reported) {
        assert_eq!(s["frags"], r["stats"]["frags"]);
        assert_eq!(s["kills"], r["stats"]["kills"]);
    }
    // The events are the replay's, tick for tick.
    let dump: Value = serde_json::from_str(&ok(&[os("replay"), replay.as_os_str(), os("--json")]))
        .expect("replay --json");
    assert_eq!(f["events"], dump["events"]);
    // Shots and explosions have their sounds; rockets or nails were in flight at some tick.
    assert!(!f["sounds"].as_array().expect("sounds").is_empty());
    assert!(
        f["geometry"]["brushes"].as_array().expect("brushes").len() > 20,
        "the arena's brushes are outlined"
    );
    // Compact: the default match (1,900 ticks, 4 bots) in well under a megabyte.
    assert!(text.len() < 1_000_000, "{} bytes", text.len());
}

#[test]
fn bad_replays_are_refused_with_reasons() {
    let dir = TempDir::new("view-bad");
    let (replay, _) = record_default(&dir);
    let bytes = std::fs::read(&replay).expect("replay");
    let page = dir.join("out.html");
    // Truncated.
    let cut = dir.join("cut.replay");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let e = fails(&[os("view"), cut.as_os_str(), os("-o"), page.as_os_str()]);
    assert!(e.contains("cut.replay") && e.contains("truncated"), "{e}");
    let short = dir.join("short.replay");
    std::fs::write(&short, &bytes[..10]).expect("write");
    let e = fails(&[os("view"), short.as_os_str(), os("-o"), page.as_os_str()]);
    assert!(e.contains("short.replay: truncated"), "{e}");
    // Foreign.
    let foreign = dir.join("foreign.replay");
    std::fs::write(&foreign, b"PK\x03\x04 not a replay at all").expect("write");
    let e = fails(&[os("view"), foreign.as_os_str(), os("-o"), page.as_os_str()]);
    assert!(e.contains("not a botarena replay"), "{e}");
    // Another version of botarena: the header says so (the checksum is made again, as a
    // file written by that version would have it).
    let r = botarena::replay::Replay::load(&replay).expect("loads");
    let mut other = r.clone();
    other.header.botarena = "0.0.1-elsewhere".into();
    let old = dir.join("old.replay");
    other.save(&old).expect("save");
    let e = fails(&[os("view"), old.as_os_str(), os("-o"), page.as_os_str()]);
    assert!(
        e.contains("recorded by botarena 0.0.1-elsewhere") && e.contains("record it again"),
        "{e}"
    );
    // Another binary with the same version number that simulates differently: the
    // re-simulation's hashes stop matching the recording.
    let mut changed = r.clone();
    let mid = changed.hashes.len() / 2;
    changed.hashes[mid] ^= 1;
    let diverged = dir.join("diverged.replay");
    changed.save(&diverged).expect("save");
    let e = fails(&[
        os("replay"),
        diverged.as_os_str(),
        os("--frames"),
        dir.join("f.json").as_os_str(),
    ]);
    assert!(
        e.contains("simulates the match differently") && e.contains(&format!("tick {mid}")),
        "{e}"
    );
    assert!(!page.exists(), "nothing written for a bad replay");
    assert!(
        !dir.join("f.json").exists(),
        "nothing written for a bad replay"
    );
}

#[test]
fn a_map_alone_is_drawn_with_its_waypoints() {
    let dir = TempDir::new("view-map");
    let grid = dir.join("grid.json");
    ok(&[
        os("waypoints"),
        os("grid"),
        os("maps/arena.map"),
        os("--spacing"),
        os("128"),
        os("--out"),
        grid.as_os_str(),
    ]);
    let graph: Value =
        serde_json::from_str(&std::fs::read_to_string(&grid).expect("grid")).expect("JSON");
    let page = dir.join("arena.html");
    ok(&[
        os("view"),
        os("maps/arena.map"),
        os("--waypoints"),
        grid.as_os_str(),
        os("-o"),
        page.as_os_str(),
    ]);
    let html = std::fs::read_to_string(&page).expect("page");
    let data = html
        .split("<script id=\"frames\" type=\"application/json\">")
        .nth(1)
        .and_then(|r| r.split("</script>").next())
        .expect("the frames are in the page");
    let f: Value = serde_json::from_str(data).expect("frames JSON");
    assert_eq!(f["ticks"], 0);
    assert!(f["players"].as_array().expect("players").is_empty());
    let waypoints = graph["waypoints"]
        .as_array()
        .expect("waypoints in the file");
    assert_eq!(
        f["waypoints"].as_array().map(|w| w.len()),
        Some(waypoints.len())
    );
    assert!(!f["links"].as_array().expect("links").is_empty());
    assert_eq!(
        f["items"].as_array().map(|i| i.len()),
        Some(common::shipped("arena").0.items.len())
    );
    // Bad input: a missing map, a waypoint file for another map, waypoints with a replay.
    let e = fails(&[
        os("view"),
        os("maps/nowhere.map"),
        os("-o"),
        page.as_os_str(),
    ]);
    assert!(e.contains("nowhere.map"), "{e}");
    let e = fails(&[
        os("view"),
        os("maps/proving.map"),
        os("--waypoints"),
        grid.as_os_str(),
        os("-o"),
        page.as_os_str(),
    ]);
    assert!(e.contains("grid.json"), "{e}");
    let (replay, _) = record_default(&dir);
    let e = fails(&[
        os("view"),
        replay.as_os_str(),
        os("--waypoints"),
        grid.as_os_str(),
        os("-o"),
        page.as_os_str(),
    ]);
    assert!(e.contains("--waypoints goes with a .map file"), "{e}");
}

// ---- the browser ------------------------------------------------------------------------

/// Chromium's program, or why there is none.
fn chromium() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("BOTARENA_CHROMIUM") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("BOTARENA_CHROMIUM={} is not a file", p.display()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err("no chromium, chromium-browser or google-chrome on PATH (install Debian's: `apt-get install -y chromium`, or set BOTARENA_CHROMIUM)".into())
}

/// A DevTools-protocol session over `--remote-debugging-pipe` (Chromium reads commands on
/// its fd 3 and writes on fd 4, each message ended by a NUL byte).
struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    /// Every event received so far.
    events: Vec<Value>,
    _profile: TempDir,
}

impl Browser {
    fn start(program: &Path) -> Browser {
        let profile = TempDir::new("chromium-profile");
        // The shell hands our stdin pipe to Chromium as fd 3 and our stdout pipe as fd 4.
        let script = format!(
            "exec 3<&0 4>&1 </dev/null >/dev/null; exec '{}' --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars --window-size=1400,900 --user-data-dir='{}' --remote-debugging-pipe about:blank",
            program.display(),
            profile.display()
        );
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let to = child.stdin.take().expect("pipe");
        let out = child.stdout.take().expect("pipe");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut buf = Vec::new();
            let mut byte = [0u8; 1];
            loop {
                match r.read(&mut byte) {
                    Ok(1) if byte[0] == 0 => {
                        let v: Value = serde_json::from_slice(&buf).expect("protocol JSON");
                        buf.clear();
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                    Ok(1) => buf.push(byte[0]),
                    _ => return,
                }
            }
        });
        Browser {
            child,
            to,
            from: rx,
            next_id: 1,
            session: None,
            events: Vec::new(),
            _profile: profile,
        }
    }

    /// Sends a command (to the attached page once there is one) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = &self.session
            && !method.starts_with("Target.")
        {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("serialises");
        bytes.push(0);
        self.to.write_all(&bytes).expect("chromium reads commands");
        self.to.flush().expect("flush");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(v) if v["id"] == json!(id) => {
                    assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                    return v["result"].clone();
                }
                Ok(v) => self.events.push(v),
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer in 60 s"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium went away"),
            }
        }
    }

    /// Evaluates a JavaScript expression in the page and returns its value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expr, "returnByValue": true }),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expr}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Waits (polling) until `expr` is true, at most `secs` seconds.
    fn wait_for(&mut self, expr: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while self.eval(expr) != json!(true) {
            assert!(Instant::now() < deadline, "waited {secs} s for {expr}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The centre of an element, in CSS pixels.
    fn centre(&mut self, selector: &str) -> (f64, f64) {
        let r = self.eval(&format!(
            "(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]; }})()"
        ));
        (r[0].as_f64().expect("x"), r[1].as_f64().expect("y"))
    }

    /// A real mouse click at (x, y).
    fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    fn click(&mut self, selector: &str) {
        let (x, y) = self.centre(selector);
        self.click_at(x, y);
    }

    /// A real key press (`key` as the DOM names it, with its Windows key code).
    fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }

    /// Console errors and warnings, uncaught exceptions and failed loads seen so far.
    fn problems(&mut self) -> Vec<String> {
        // Drain what has arrived.
        while let Ok(v) = self.from.try_recv() {
            self.events.push(v);
        }
        let mut out = Vec::new();
        for e in &self.events {
            match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => {
                    out.push(format!("exception: {}", e["params"]["exceptionDetails"]))
                }
                Some("Runtime.consoleAPICalled")
                    if matches!(e["params"]["type"].as_str(), Some("error" | "warning")) =>
                {
                    out.push(format!("console: {}", e["params"]["args"]))
                }
                Some("Log.entryAdded")
                    if matches!(e["params"]["entry"]["level"].as_str(), Some("error")) =>
                {
                    out.push(format!("log: {}", e["params"]["entry"]["text"]))
                }
                _ => {}
            }
        }
        out
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The screenshot's pixel (r, g, b) at CSS pixel (x, y) (the device scale is 1).
fn pixel(img: &(Vec<u8>, u32, u32, usize), x: f64, y: f64) -> [u8; 3] {
    let (data, w, h, channels) = img;
    let (x, y) = (
        (x.round() as u32).min(w - 1) as usize,
        (y.round() as u32).min(h - 1) as usize,
    );
    let i = (y * *w as usize + x) * channels;
    [data[i], data[i + 1], data[i + 2]]
}

fn hex(c: &str) -> [u8; 3] {
    let v = u32::from_str_radix(c.trim_start_matches('#'), 16).expect("hex colour");
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 24)
}

#[test]
fn the_page_plays_the_default_match_in_chromium() {
    let program = match chromium() {
        Ok(p) => p,
        Err(why) if std::env::var_os("BOTARENA_REQUIRE_BROWSER").is_some() => {
            panic!("the viewer's browser test needs Chromium: {why}")
        }
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let dir = TempDir::new("view-browser");
    let (replay, report) = record_default(&dir);
    let page = dir.join("match.html");
    ok(&[os("view"), replay.as_os_str(), os("-o"), page.as_os_str()]);
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("src="),
        "the page loads nothing from anywhere"
    );
    let ticks = report["ticks"].as_u64().expect("ticks");
    let dump: Value = serde_json::from_str(&ok(&[os("replay"), replay.as_os_str(), os("--json")]))
        .expect("replay --json");
    let death_ticks: Vec<u64> = dump["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["event"].get("Death").is_some())
        .map(|e| e["tick"].as_u64().expect("tick"))
        .collect();

    let mut b = Browser::start(&program);
    let targets = b.call("Target.getTargets", json!({}));
    let target = targets["targetInfos"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["type"] == "page")
        .expect("a page")["targetId"]
        .clone();
    let attached = b.call(
        "Target.attachToTarget",
        json!({ "targetId": target, "flatten": true }),
    );
    b.session = Some(attached["sessionId"].as_str().expect("session").to_string());
    for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
        b.call(domain, json!({}));
    }
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    let url = format!("file://{}", page.display());
    b.call("Page.navigate", json!({ "url": url }));
    b.wait_for("document.body && document.body.dataset.ready === '1'", 60);
    assert_eq!(b.eval("window.botarenaViewer.tick()"), json!(0));
    assert_eq!(b.eval("window.botarenaViewer.ticks"), json!(ticks));

    // Play with the page's button, let it run, pause with the button.
    b.click("#play");
    b.wait_for("window.botarenaViewer.tick() >= 10", 30);
    b.click("#play");
    let paused = b
        .eval("window.botarenaViewer.tick()")
        .as_u64()
        .expect("tick");
    assert!(paused >= 10);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        b.eval("window.botarenaViewer.tick()").as_u64(),
        Some(paused),
        "paused stays"
    );
    assert!(
        b.eval("document.getElementById('play').textContent")
            .as_str()
            .is_some_and(|s| s.contains("play")),
        "the button offers to play again"
    );

    // The scrub bar: a click near its middle, then the End key on it, as a person would.
    let r = b.eval("(() => { const r = document.getElementById('scrub').getBoundingClientRect(); return [r.left, r.top + r.height / 2, r.width]; })()");
    let (left, y, width) = (
        r[0].as_f64().expect("left"),
        r[1].as_f64().expect("y"),
        r[2].as_f64().expect("width"),
    );
    b.click_at(left + width / 2.0, y);
    let mid = b
        .eval("window.botarenaViewer.tick()")
        .as_u64()
        .expect("tick");
    assert!(
        mid > ticks / 4 && mid < 3 * ticks / 4,
        "a click in the middle of the timeline goes near the middle: {mid} of {ticks}"
    );
    b.key("End", 35);
    assert_eq!(b.eval("window.botarenaViewer.tick()").as_u64(), Some(ticks));
    let clock = b.eval("document.getElementById('clock').textContent");
    assert!(
        clock
            .as_str()
            .is_some_and(|s| s.starts_with(&format!("tick {ticks} / {ticks}"))),
        "{clock}"
    );

    // The live scoreboard at the end is the run's final scoreboard.
    let rows = b.eval("[...document.querySelectorAll('#scoreboard tbody tr')].map(r => [r.dataset.name, Number(r.querySelector('.frags').textContent), Number(r.querySelector('.deaths').textContent)])");
    let rows = rows.as_array().expect("rows");
    let players = report["players"].as_array().expect("players");
    assert_eq!(rows.len(), players.len());
    for p in players {
        let row = rows
            .iter()
            .find(|r| r[0] == p["name"])
            .unwrap_or_else(|| panic!("{} is on the scoreboard", p["name"]));
        assert_eq!(row[1], p["stats"]["frags"], "{}", p["name"]);
        assert_eq!(row[2], p["stats"]["deaths"], "{}", p["name"]);
    }
    // Ranked by frags.
    let frags: Vec<i64> = rows.iter().map(|r| r[1].as_i64().expect("frags")).collect();
    assert!(frags.windows(2).all(|w| w[0] >= w[1]), "{frags:?}");

    // Jump to the previous death with the page's button.
    b.click("#prev-event");
    let last_death = *death_ticks
        .iter()
        .filter(|&&t| t < ticks)
        .max()
        .expect("deaths");
    assert_eq!(
        b.eval("window.botarenaViewer.tick()").as_u64(),
        Some(last_death)
    );
    let feed = b.eval("document.querySelectorAll('#feed li').length");
    assert_eq!(
        feed.as_u64(),
        Some(death_ticks.len() as u64),
        "a kill feed line per death"
    );

    // Layers toggle with their boxes; follow a player from the scoreboard.
    for layer in ["routes", "sight", "sounds", "waypoints", "heat"] {
        b.click(&format!("#layer-{layer}"));
        assert_eq!(
            b.eval(&format!("document.getElementById('layer-{layer}').checked")),
            json!(true)
        );
    }
    b.click("#scoreboard tbody tr");
    assert!(b.eval("document.getElementById('follow').value !== '-1'") == json!(true));
    b.click("#scoreboard tbody tr");
    assert_eq!(
        b.eval("document.getElementById('follow').value"),
        json!("-1")
    );
    for layer in ["routes", "sight", "sounds", "waypoints", "heat"] {
        b.click(&format!("#layer-{layer}"));
    }
    b.key("End", 35);

    // The screenshot shows the map and every player in its colour where the page says it
    // drew it.
    let shot = b.call("Page.captureScreenshot", json!({ "format": "png" }));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().expect("image data"))
        .expect("base64");
    let shots = root().join("target").join("viewer-test.png");
    let _ = std::fs::write(&shots, &png);
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("frame");
    let channels = info.color_type.samples();
    let img = (buf, info.width, info.height, channels);
    // drawn() is in the canvas's own pixels; the screenshot's are the page's.
    let origin = b.eval("(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top]; })()");
    let (ox, oy) = (
        origin[0].as_f64().expect("left"),
        origin[1].as_f64().expect("top"),
    );
    let drawn = b.eval("window.botarenaViewer.drawn()");
    let drawn = drawn.as_array().expect("drawn");
    assert_eq!(drawn.len(), players.len());
    for d in drawn {
        let colour = hex(d["colour"].as_str().expect("colour"));
        let (x, y) = (
            ox + d["x"].as_f64().expect("x"),
            oy + d["y"].as_f64().expect("y"),
        );
        let found = (-2..=2)
            .any(|dx| (-2..=2).any(|dy| close(pixel(&img, x + dx as f64, y + dy as f64), colour)));
        assert!(
            found,
            "{} drawn in {:?} at ({x:.0}, {y:.0}); the screenshot has {:?} there (saved to {})",
            d["name"],
            colour,
            pixel(&img, x, y),
            shots.display()
        );
    }
    // The map: walls and floors differ from the background over a good part of the canvas.
    let m = b.eval("(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()");
    let m: Vec<u32> = (0..4)
        .map(|i| m[i].as_f64().expect("rect").round() as u32)
        .collect();
    let background = [0xf4, 0xf1, 0xea];
    let mut drawn_pixels = 0;
    let mut total = 0;
    for yy in (m[1]..m[3]).step_by(3) {
        for xx in (m[0]..m[2]).step_by(3) {
            total += 1;
            if pixel(&img, xx as f64, yy as f64) != background {
                drawn_pixels += 1;
            }
        }
    }
    assert!(
        drawn_pixels * 5 > total,
        "the map covers {drawn_pixels} of {total} sampled pixels"
    );
    let problems = b.problems();
    assert!(problems.is_empty(), "the page reported: {problems:#?}");

    // A map alone: drawn, its timeline and scoreboard hidden, no errors.
    let map_page = dir.join("map.html");
    ok(&[
        os("view"),
        os("maps/arena.map"),
        os("-o"),
        map_page.as_os_str(),
    ]);
    b.call(
        "Page.navigate",
        json!({ "url": format!("file://{}", map_page.display()) }),
    );
    b.wait_for("document.body && document.body.dataset.ready === '1'", 60);
    assert_eq!(
        b.eval("getComputedStyle(document.querySelector('footer')).display"),
        json!("none")
    );
    assert_eq!(b.eval("window.botarenaViewer.drawn().length"), json!(0));
    let problems = b.problems();
    assert!(problems.is_empty(), "the map page reported: {problems:#?}");
}
