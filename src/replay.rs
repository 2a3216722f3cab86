//! Replays: a compact record of a scenario run that can be re-simulated and checked tick by
//! tick.
//!
//! File layout (little-endian), format 1:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | magic `BARP` |
//! | 4 | format version (u32) |
//! | 4 + n | header length (u32) and header JSON ([`ReplayHeader`]: binary version, scenario path and full text, seed, tick rate, ticks, map geometry hash, part names; for a run driven from outside, the players made external and the commands they were given) |
//! | 8 + (ticks + 1) × (8 + 4 × parts) | tick count (u64), then for the state after building and after every tick: the state hash (u64) and one u32 per part (each player, then the world) |
//! | 4 + m | events length (u32) and events JSON (`[{"tick": t, "event": {...}}, ...]`: pickups, damage, deaths and frags, waypoint drops, teleports, jumps, spawns) |
//! | 8 | XXH3-64 of everything before it |
//!
//! A truncated, altered or foreign file is refused with a reason; nothing is half-read.

use std::path::Path;

use serde::{Deserialize, Serialize};
use twox_hash::XxHash3_64;

use crate::bot::control::ScriptStep;
use crate::nav::waypoint_file::geometry_hash;
use crate::scenario::{Scenario, ScenarioError};
use crate::tick::Match;

/// The file's first bytes.
pub const MAGIC: &[u8; 4] = crate::map::file_kind::REPLAY_MAGIC;
/// The layout version this binary reads and writes.
pub const FORMAT: u32 = 1;

/// What a replay knows about the run it records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayHeader {
    /// Version of the botarena that recorded it.
    pub botarena: String,
    /// The scenario file's path as given when recording (maps resolve against it).
    pub scenario_path: String,
    /// The scenario file's text.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// Ticks recorded.
    pub ticks: u64,
    /// Hash of the map's geometry.
    pub map_geometry: String,
    /// Names of the hashed parts (players, then the world).
    pub parts: Vec<String>,
    /// Players made external when the match was built, whatever the scenario gives them
    /// (the Python module's `external=[...]`); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<String>,
    /// The commands external players were given, in the order given, each with the tick
    /// it was given at (before that tick ran); a command equal to the one the player
    /// already held is left out. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<GivenCommand>,
}

/// A command given to an external player during a recorded run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GivenCommand {
    /// The match's tick when it was given (it holds from the tick that follows).
    pub tick: u64,
    /// The player.
    pub player: String,
    /// The command (`ticks` unused).
    pub command: ScriptStep,
}

/// A replay in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The header.
    pub header: ReplayHeader,
    /// State hash after building (index 0) and after every tick.
    pub hashes: Vec<u64>,
    /// Per-part hashes (32 low bits), `parts` per entry of `hashes`.
    pub part_hashes: Vec<u32>,
    /// Events as JSON values, each `{"tick": t, "event": ...}`.
    pub events: Vec<serde_json::Value>,
    /// The folder of the file it was read from (`None`: read from memory, or recorded):
    /// where a scenario recorded by a relative path is looked for too.
    pub folder: Option<std::path::PathBuf>,
}

/// Why a replay could not be read or checked.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A file of another kind given for this one (the message names both).
    #[error("{0}")]
    WrongKind(String),
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file does not start with the replay magic.
    #[error("{0}: not a botarena replay (no BARP magic)")]
    NotAReplay(String),
    /// A format this binary does not read.
    #[error("{path}: replay format {found}, this botarena reads format {FORMAT}")]
    Format {
        /// The file.
        path: String,
        /// Its format.
        found: u32,
    },
    /// The file ends early.
    #[error("{path}: truncated: {what} needs bytes {from}..{to} but the file has {len}")]
    Truncated {
        /// The file.
        path: String,
        /// The section.
        what: &'static str,
        /// Section start.
        from: usize,
        /// Section end.
        to: usize,
        /// File length.
        len: usize,
    },
    /// The checksum does not match.
    #[error("{0}: checksum mismatch: the file is truncated or corrupted")]
    Checksum(String),
    /// A section's content is invalid.
    #[error("{path}: {what}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// The section.
        what: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The embedded scenario does not load any more.
    #[error("replay's scenario: {0}")]
    Scenario(#[from] ScenarioError),
    /// The embedded scenario's files (its map) are found neither from the working directory
    /// nor from the replay's folder or any above it.
    #[error(
        "replay's scenario: {0} (looked for from the working directory, and from the replay's folder and each folder above it)"
    )]
    ScenarioElsewhere(ScenarioError),
    /// The map's geometry differs from the recording's.
    #[error("the map {map} changed since the recording (geometry {now}, recorded {then})")]
    MapChanged {
        /// The map file.
        map: String,
        /// Its geometry hash now.
        now: String,
        /// At recording.
        then: String,
    },
}

/// Records a run as it goes.
pub struct Recorder {
    header: ReplayHeader,
    hashes: Vec<u64>,
    part_hashes: Vec<u32>,
    events: Vec<serde_json::Value>,
    /// The last command recorded per external player (to leave out repeats).
    held: std::collections::BTreeMap<String, ScriptStep>,
}

impl Recorder {
    /// Starts a recording of `m`, just built from `scenario` whose file text is `text`.
    pub fn new(scenario: &Scenario, text: &str, m: &Match) -> Recorder {
        let mut r = Recorder {
            header: ReplayHeader {
                botarena: env!("CARGO_PKG_VERSION").to_string(),
                scenario_path: scenario.path.display().to_string(),
                scenario: text.to_string(),
                seed: scenario.seed,
                tick_rate: scenario.tick_rate,
                ticks: 0,
                map_geometry: geometry_hash(&m.sim.level),
                parts: m.part_names(),
                external: Vec::new(),
                commands: Vec::new(),
            },
            hashes: Vec::new(),
            part_hashes: Vec::new(),
            events: Vec::new(),
            held: Default::default(),
        };
        r.push(m);
        r
    }

    fn push(&mut self, m: &Match) {
        self.hashes.push(m.state_hash());
        self.part_hashes
            .extend(m.part_hashes().into_iter().map(|h| h as u32));
        for e in &m.sim.events {
            self.events
                .push(serde_json::json!({ "tick": m.sim.tick, "event": e }));
        }
    }

    /// Notes the players that were made external when the match was built (beyond what the
    /// scenario file says); a re-simulation makes them external too.
    pub fn set_external(&mut self, names: &[String]) {
        self.header.external = names.to_vec();
    }

    /// Notes a command given to external player `player` at the match's tick `tick` (after
    /// [`Match::set_command`] took it); a re-simulation gives it at the same tick.
    pub fn command(&mut self, tick: u64, player: &str, command: ScriptStep) {
        let command = ScriptStep {
            ticks: 0,
            ..command
        };
        if self.held.get(player) == Some(&command) {
            return;
        }
        self.held.insert(player.to_string(), command);
        self.header.commands.push(GivenCommand {
            tick,
            player: player.to_string(),
            command,
        });
    }

    /// Adds the tick just run.
    pub fn record(&mut self, m: &Match) {
        self.header.ticks += 1;
        self.push(m);
    }

    /// The replay so far (the recording goes on).
    pub fn replay(&self) -> Replay {
        Replay {
            header: self.header.clone(),
            hashes: self.hashes.clone(),
            part_hashes: self.part_hashes.clone(),
            events: self.events.clone(),
            folder: None,
        }
    }

    /// The finished replay.
    pub fn finish(self) -> Replay {
        Replay {
            header: self.header,
            hashes: self.hashes,
            part_hashes: self.part_hashes,
            events: self.events,
            folder: None,
        }
    }
}

impl Replay {
    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        let header = serde_json::to_vec(&self.header).expect("header serialises");
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&self.header.ticks.to_le_bytes());
        let parts = self.header.parts.len();
        for (i, h) in self.hashes.iter().enumerate() {
            out.extend_from_slice(&h.to_le_bytes());
            for p in &self.part_hashes[i * parts..(i + 1) * parts] {
                out.extend_from_slice(&p.to_le_bytes());
            }
        }
        let events = serde_json::to_vec(&self.events).expect("events serialise");
        out.extend_from_slice(&(events.len() as u32).to_le_bytes());
        out.extend_from_slice(&events);
        let sum = XxHash3_64::oneshot(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the file.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| ReplayError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads a file.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let bytes = crate::map::file_kind::read_at_most(
            path,
            crate::map::file_kind::MAX_DATA_BYTES,
            "a replay",
        )
        .map_err(|source| ReplayError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let name = path.display().to_string();
        let mut r = Self::from_bytes(&bytes, &name).map_err(|e| {
            crate::map::file_kind::mismatch(&name, &bytes, crate::map::file_kind::FileKind::Replay)
                .map(ReplayError::WrongKind)
                .unwrap_or(e)
        })?;
        r.folder = Some(match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        });
        Ok(r)
    }

    /// Parses file bytes; `name` names the file in errors.
    pub fn from_bytes(b: &[u8], name: &str) -> Result<Replay, ReplayError> {
        let path = name.to_string();
        let take = |at: usize, n: usize, what: &'static str| -> Result<&[u8], ReplayError> {
            let to = at.saturating_add(n);
            b.get(at..to).ok_or(ReplayError::Truncated {
                path: path.clone(),
                what,
                from: at,
                to,
                len: b.len(),
            })
        };
        let u32_at = |at: usize, what| -> Result<u32, ReplayError> {
            Ok(u32::from_le_bytes(
                take(at, 4, what)?.try_into().expect("4 bytes"),
            ))
        };
        let u64_at = |at: usize, what| -> Result<u64, ReplayError> {
            Ok(u64::from_le_bytes(
                take(at, 8, what)?.try_into().expect("8 bytes"),
            ))
        };
        if b.len() < 4 || &b[..4] != MAGIC {
            return Err(ReplayError::NotAReplay(path));
        }
        let format = u32_at(4, "format")?;
        if format != FORMAT {
            return Err(ReplayError::Format {
                path,
                found: format,
            });
        }
        let hlen = u32_at(8, "header length")? as usize;
        let header_bytes = take(12, hlen, "header")?;
        let mut at = 12 + hlen;
        let ticks = u64_at(at, "tick count")?;
        at += 8;
        // Check the sum before trusting any length further on.
        if b.len() < 8 + at {
            return Err(ReplayError::Truncated {
                path,
                what: "checksum",
                from: at,
                to: at + 8,
                len: b.len(),
            });
        }
        let body = &b[..b.len() - 8];
        let sum = u64::from_le_bytes(b[b.len() - 8..].try_into().expect("8 bytes"));
        if XxHash3_64::oneshot(body) != sum {
            return Err(ReplayError::Checksum(path));
        }
        let header: ReplayHeader =
            serde_json::from_slice(header_bytes).map_err(|e| ReplayError::Invalid {
                path: path.clone(),
                what: "header",
                message: e.to_string(),
            })?;
        if header.ticks != ticks {
            return Err(ReplayError::Invalid {
                path,
                what: "tick count",
                message: format!("{} in the header, {ticks} in the table", header.ticks),
            });
        }
        if ticks > crate::scenario::MAX_TICKS {
            return Err(ReplayError::Invalid {
                path,
                what: "tick count",
                message: format!(
                    "{ticks} ticks claimed, more than a scenario may run ({})",
                    crate::scenario::MAX_TICKS
                ),
            });
        }
        let parts = header.parts.len();
        let row = 8 + 4 * parts;
        let rows = ticks as usize + 1;
        // Bounded above: a table longer than the file is refused before anything is kept.
        let table = take(at, rows.saturating_mul(row), "hash table")?;
        let mut hashes = Vec::with_capacity(rows);
        let mut part_hashes = Vec::with_capacity(rows * parts);
        for r in table.chunks_exact(row) {
            hashes.push(u64::from_le_bytes(r[..8].try_into().expect("8 bytes")));
            for p in r[8..].chunks_exact(4) {
                part_hashes.push(u32::from_le_bytes(p.try_into().expect("4 bytes")));
            }
        }
        at += rows * row;
        let elen = u32_at(at, "events length")? as usize;
        let ev = take(at + 4, elen, "events")?;
        if at + 4 + elen != body.len() {
            return Err(ReplayError::Invalid {
                path,
                what: "layout",
                message: format!(
                    "{} bytes after the events section",
                    body.len() - (at + 4 + elen)
                ),
            });
        }
        let events: Vec<serde_json::Value> =
            serde_json::from_slice(ev).map_err(|e| ReplayError::Invalid {
                path: path.clone(),
                what: "events",
                message: e.to_string(),
            })?;
        Ok(Replay {
            header,
            hashes,
            part_hashes,
            events,
            folder: None,
        })
    }

    /// The scenario the replay was recorded from, as recorded. Its path was recorded as
    /// given to `run`, relative to where that ran: when its files (the map) are not found
    /// from the working directory, the path is tried from the replay's folder and each
    /// folder above it (a replay kept in the project, read from elsewhere).
    pub fn scenario(&self) -> Result<Scenario, ReplayError> {
        let recorded = Path::new(&self.header.scenario_path);
        let here = Scenario::parse(&self.header.scenario, recorded);
        let Err(e) = here else {
            return Ok(here?);
        };
        if recorded.is_absolute() || self.folder.is_none() {
            return Err(e.into());
        }
        for dir in self.folder.iter().flat_map(|f| f.ancestors()) {
            if let Ok(s) = Scenario::parse(&self.header.scenario, &dir.join(recorded)) {
                return Ok(s);
            }
        }
        Err(ReplayError::ScenarioElsewhere(e))
    }

    /// Events by kind (`Pickup`, `Death`, ...), counted.
    pub fn event_counts(&self) -> std::collections::BTreeMap<String, u64> {
        let mut kinds = std::collections::BTreeMap::new();
        for e in &self.events {
            if let Some(obj) = e["event"].as_object()
                && let Some(k) = obj.keys().next()
            {
                *kinds.entry(k.clone()).or_insert(0) += 1;
            }
        }
        kinds
    }

    /// A summary for people: the file, scenario, run, final hash, hashed parts and event
    /// counts (`file` names the replay).
    pub fn summary(&self, file: &Path) -> String {
        let h = &self.header;
        let ev: Vec<String> = self
            .event_counts()
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "replay      {}\nscenario    {}\nrun         {} ticks at {} Hz, seed {}, recorded by botarena {}\nfinal hash  {:016x}\nparts       {}\nevents      {}\n",
            file.display(),
            h.scenario_path,
            h.ticks,
            h.tick_rate,
            h.seed,
            h.botarena,
            self.hashes.last().copied().unwrap_or_default(),
            h.parts.join("; "),
            ev.join(", ")
        )
    }

    /// Re-simulates the run and compares every tick; `progress` is called with each tick
    /// done. The first difference is returned as a [`Divergence`].
    pub fn verify(&self, mut progress: impl FnMut(u64)) -> Result<Verified, ReplayError> {
        self.resimulate(|m| {
            if m.tick() > 0 {
                progress(m.tick());
            }
        })
    }

    /// Re-simulates the run, comparing every tick's state hash with the recording, and shows
    /// `visit` the match after building and after every tick that matched (what the viewer's
    /// frames are drawn from). Stops at the first difference, returned as a [`Divergence`].
    pub fn resimulate(&self, mut visit: impl FnMut(&Match)) -> Result<Verified, ReplayError> {
        let mut scenario = self.scenario()?;
        scenario.seed = self.header.seed;
        scenario
            .make_external(&self.header.external)
            .map_err(|message| ReplayError::Invalid {
                path: self.header.scenario_path.clone(),
                what: "header",
                message,
            })?;
        let mut m = scenario.build()?;
        let mut commands = self.header.commands.iter().peekable();
        let now = geometry_hash(&m.sim.level);
        if now != self.header.map_geometry {
            return Err(ReplayError::MapChanged {
                map: scenario.map.display().to_string(),
                now,
                then: self.header.map_geometry.clone(),
            });
        }
        let parts = self.header.parts.len();
        for t in 0..=self.header.ticks {
            if t > 0 {
                m.step();
            }
            // The commands given at this tick, before the next one runs.
            while let Some(c) = commands.next_if(|c| c.tick == t) {
                m.set_command(&c.player, c.command)
                    .map_err(|e| ReplayError::Invalid {
                        path: self.header.scenario_path.clone(),
                        what: "commands",
                        message: format!("tick {t}: {e}"),
                    })?;
            }
            let i = t as usize;
            if m.state_hash() != self.hashes[i] {
                let mine = m.part_hashes();
                let recorded = &self.part_hashes[i * parts..(i + 1) * parts];
                let names = m.part_names();
                let differing: Vec<String> = (0..parts.max(mine.len()))
                    .filter(|&k| mine.get(k).map(|h| *h as u32) != recorded.get(k).copied())
                    .map(|k| {
                        names
                            .get(k)
                            .or(self.header.parts.get(k))
                            .cloned()
                            .unwrap_or_else(|| format!("part {k}"))
                    })
                    .collect();
                return Ok(Verified {
                    ticks: t,
                    divergence: Some(Divergence {
                        tick: t,
                        parts: differing,
                    }),
                });
            }
            visit(&m);
        }
        Ok(Verified {
            ticks: self.header.ticks,
            divergence: None,
        })
    }
}

/// The outcome of a verification.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verified {
    /// Ticks checked.
    pub ticks: u64,
    /// The first tick that differs, if any.
    pub divergence: Option<Divergence>,
}

/// Where a re-simulation first differs from the recording.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    /// The tick (0: the state right after building).
    pub tick: u64,
    /// The parts whose state differs (players by name and id, or the world).
    pub parts: Vec<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tick {}: ", self.tick)?;
        if self.parts.is_empty() {
            write!(f, "the state hash differs")
        } else {
            write!(f, "{} diverged", self.parts.join(", "))
        }
    }
}
