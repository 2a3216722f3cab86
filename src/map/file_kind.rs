//! Which of botarena's inputs a file is, told from its first bytes, so that a file given
//! where another kind is expected (a `.nav` as a map, a replay as a scenario) is named in
//! one line instead of failing deep inside a parser with its text echoed back. The readers
//! ask only once their own parse has failed, so a guess here never refuses a good file. It
//! lives with the map reader, the lowest layer, where every reader can reach it.

/// A kind of file botarena reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A Quake `.map`.
    Map,
    /// A scenario (TOML).
    Scenario,
    /// A recorded match (`run --record`).
    Replay,
    /// Compiled navigation (`nav compile`).
    Nav,
    /// A waypoint graph (`explore`, `waypoints`).
    Waypoints,
}

impl FileKind {
    /// What it is, for people.
    pub fn noun(self) -> &'static str {
        match self {
            FileKind::Map => "a Quake .map file",
            FileKind::Scenario => "a scenario (TOML)",
            FileKind::Replay => "a botarena replay",
            FileKind::Nav => "a compiled navigation (.nav) file",
            FileKind::Waypoints => "a botarena waypoint file",
        }
    }

    /// The command that takes it.
    fn reader(self) -> &'static str {
        match self {
            FileKind::Map => "botarena map info",
            FileKind::Scenario => "botarena run",
            FileKind::Replay => "botarena replay",
            FileKind::Nav => "botarena nav info",
            FileKind::Waypoints => "botarena waypoints info",
        }
    }
}

/// A replay's first bytes ([`crate::replay::MAGIC`] is this).
pub const REPLAY_MAGIC: &[u8; 4] = b"BARP";

/// How far into a file the kind is looked for.
const HEAD: usize = 4096;

/// The kind `bytes` (a file's start or all of it) look like, if any.
pub fn sniff(bytes: &[u8]) -> Option<FileKind> {
    if bytes.starts_with(REPLAY_MAGIC) {
        return Some(FileKind::Replay);
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(HEAD)]);
    let text = head.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('{') && text[1..].trim_start().starts_with('"') {
        // JSON says its format near the start; a map's first entity opens with a key.
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.contains("\"format\":\"botarena-nav\"") {
            return Some(FileKind::Nav);
        }
        if compact.contains("\"format\":\"botarena-waypoints\"") {
            return Some(FileKind::Waypoints);
        }
    }
    let lines = || {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'))
    };
    if lines().any(|l| l.starts_with("\"classname\"")) {
        return Some(FileKind::Map);
    }
    let toml_line = |l: &str| {
        l.starts_with('[')
            || l.split_once('=').is_some_and(|(k, _)| {
                let k = k.trim();
                !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
    };
    if lines().next().is_some_and(toml_line) && lines().take(5).all(toml_line) {
        return Some(FileKind::Scenario);
    }
    None
}

/// The one-line error for `path` (whose start is `bytes`) given where `expected` was
/// wanted, when it is recognisably another kind.
pub fn mismatch(path: &str, bytes: &[u8], expected: FileKind) -> Option<String> {
    let kind = sniff(bytes).filter(|&k| k != expected)?;
    Some(format!(
        "{path} is {}, not {} (`{}` reads it)",
        kind.noun(),
        expected.noun(),
        kind.reader()
    ))
}

/// Reads a whole file of at most `limit` bytes; a larger one is refused unread, as an
/// `InvalidData` error saying the size, the limit and what the file was to be (`what`).
pub fn read_at_most(path: &std::path::Path, limit: u64, what: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    // One byte over the limit tells a file that is too large, whatever its metadata says.
    f.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .unwrap_or(limit + 1);
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{size} bytes, more than {what} may be ({limit})"),
        ));
    }
    Ok(bytes)
}

/// The largest scenario file read, bytes (a scenario is a page of settings; scripts of
/// recorded runs make it longer, never this long).
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;
/// The largest waypoint, `.nav` or replay file read, bytes.
pub const MAX_DATA_BYTES: u64 = 1 << 30;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_told_from_its_start() {
        assert_eq!(sniff(b"BARP\x01\x00\x00\x00"), Some(FileKind::Replay));
        assert_eq!(
            sniff(br#"{"format":"botarena-nav","version":3}"#),
            Some(FileKind::Nav)
        );
        assert_eq!(
            sniff(b"{\n  \"format\": \"botarena-waypoints\", \"version\": 1 }"),
            Some(FileKind::Waypoints)
        );
        assert_eq!(
            sniff(b"// Game: Quake\n{\n\"classname\" \"worldspawn\"\n"),
            Some(FileKind::Map)
        );
        assert_eq!(
            sniff(b"# a duel\nname = \"x\"\nmap = \"../maps/arena.map\"\n\n[[players]]\n"),
            Some(FileKind::Scenario)
        );
        assert_eq!(sniff(b"hello world"), None);
        assert_eq!(sniff(br#"{"other": 1}"#), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn a_mismatch_names_both_kinds_and_the_reader() {
        let m = mismatch("a.nav", br#"{"format":"botarena-nav"}"#, FileKind::Map).unwrap();
        assert_eq!(
            m,
            "a.nav is a compiled navigation (.nav) file, not a Quake .map file \
             (`botarena nav info` reads it)"
        );
        assert_eq!(mismatch("x", b"BARP", FileKind::Replay), None);
    }
}
