//! Building a [`super::Level`] from a parsed map ([`super::Level::from_map`]): entities read
//! with Quake's defaults, movers' directions and bounds, and doors linked as Quake links
//! touching doors.

use glam::Vec3;

use super::{
    ItemDef, ItemKind, Level, MoverDef, MoverKind, PathCorner, RelayDef, RelayKind,
    SPAWNFLAG_NOT_DEATHMATCH, SpawnPoint, TeleportDest, TriggerDef, TriggerKind,
};
use crate::map::brush::{Brush, Contents};
use crate::map::classes::{Treatment, treatment};
use crate::map::collision::EntId;
use crate::map::parse::{MapData, MapEntity, MapWarning, parse_vec3};

pub(super) struct Keys<'a> {
    pub(super) e: &'a MapEntity,
    pub(super) warnings: &'a mut Vec<MapWarning>,
}

impl Keys<'_> {
    pub(super) fn f32_or(&mut self, key: &str, default: f32) -> f32 {
        match self.e.get(key) {
            None => default,
            Some(v) => match v.trim().parse::<f32>() {
                Ok(x) if x.is_finite() => x,
                _ => {
                    self.warnings.push(MapWarning {
                        line: self.e.line,
                        message: format!(
                            "{} (entity {}): \"{key}\" \"{v}\" is not a number; using {default}",
                            self.e.classname, self.e.index
                        ),
                    });
                    default
                }
            },
        }
    }
    /// Seconds a firing waits (subs.qc: any `delay` but 0 defers it; one below 0 fires at
    /// once, on the next frame in Quake).
    pub(super) fn delay(&mut self) -> f32 {
        self.f32_or("delay", 0.0).max(0.0)
    }
    pub(super) fn vec3(&mut self, key: &str) -> Option<Vec3> {
        let v = self.e.get(key)?;
        let r = parse_vec3(v);
        if r.is_none() {
            self.warnings.push(MapWarning {
                line: self.e.line,
                message: format!(
                    "{} (entity {}): \"{key}\" \"{v}\" is not three numbers; entity skipped",
                    self.e.classname, self.e.index
                ),
            });
        }
        r
    }
    pub(super) fn string(&self, key: &str) -> Option<String> {
        self.e
            .get(key)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    }
    pub(super) fn yaw(&mut self) -> f32 {
        if let Some(a) = self.e.get("angles").or(self.e.get("mangle"))
            && let Some(v) = parse_vec3(a)
        {
            return v.y;
        }
        self.f32_or("angle", 0.0)
    }
}

/// Quake's SetMovedir: angle -1 is up, -2 down, otherwise a horizontal yaw.
pub(super) fn move_dir(angle: f32) -> Vec3 {
    if angle == -1.0 {
        Vec3::Z
    } else if angle == -2.0 {
        -Vec3::Z
    } else {
        let r = angle.to_radians();
        Vec3::new(r.cos(), r.sin(), 0.0)
    }
}

/// The direction a door or button moves, or a `trigger_push` pushes (subs.qc SetMovedir
/// over the entity's angles): `angles` "0 -1 0" is up and "0 -2 0" down, other angles point
/// along Quake's forward vector (pitch down positive: "90 0 0" is straight down); a lone
/// `angle` is a yaw, −1 up, −2 down.
pub(super) fn set_movedir(k: &mut Keys) -> Vec3 {
    if let Some(a) = k.e.get("angles").and_then(parse_vec3) {
        if a.x == 0.0 && a.z == 0.0 && (a.y == -1.0 || a.y == -2.0) {
            return move_dir(a.y);
        }
        let (p, y) = (a.x.to_radians(), a.y.to_radians());
        return Vec3::new(p.cos() * y.cos(), p.cos() * y.sin(), -p.sin());
    }
    move_dir(k.f32_or("angle", 0.0))
}

/// A secret door's two offsets (doors.qc `fd_secret_use`): the facing `angle` gives
/// forward and right; `t_width`/`t_length` of 0 mean the door's extent along the move.
pub(super) fn secret_moves(
    angle: f32,
    spawnflags: u32,
    size: Vec3,
    width: f32,
    length: f32,
) -> (Vec3, Vec3) {
    let r = angle.to_radians();
    let forward = Vec3::new(r.cos(), r.sin(), 0.0);
    let right = Vec3::new(r.sin(), -r.cos(), 0.0);
    let down = spawnflags & 4 != 0;
    let width = if width != 0.0 {
        width
    } else if down {
        size.z
    } else {
        right.dot(size).abs()
    };
    let length = if length != 0.0 {
        length
    } else {
        forward.dot(size).abs()
    };
    let first = if down {
        Vec3::new(0.0, 0.0, -width)
    } else if spawnflags & 2 != 0 {
        -right * width
    } else {
        right * width
    };
    (first, first + forward * length)
}

/// A trigger's box: every brush of the entity, a `*teleport`-textured one too. A trigger is
/// its model's bounds whatever its faces are painted with (a teleporter may be one brush
/// with a single `*teleport` face; counted as a surface only, it was lost).
pub(super) fn trigger_bounds(e: &MapEntity) -> Option<(Vec3, Vec3)> {
    let all: Vec<Brush> = e
        .brushes
        .iter()
        .chain(&e.teleport_surfaces)
        .cloned()
        .collect();
    bounds_of(&all)
}

pub(super) fn bounds_of(brushes: &[Brush]) -> Option<(Vec3, Vec3)> {
    let mut mn = Vec3::splat(f32::INFINITY);
    let mut mx = Vec3::splat(f32::NEG_INFINITY);
    for b in brushes {
        mn = mn.min(b.mins);
        mx = mx.max(b.maxs);
    }
    mn.is_finite().then_some((mn, mx))
}

impl Level {
    /// Interprets a parsed map.
    pub fn from_map(mut map: MapData) -> Level {
        let mut warnings = std::mem::take(&mut map.warnings);
        let mut static_brushes = Vec::new();
        let mut movers: Vec<MoverDef> = Vec::new();
        let mut triggers = Vec::new();
        let mut relays = Vec::new();
        // Names of the never-moving brush entities (a killtarget may name one).
        let mut wall_names: Vec<String> = Vec::new();
        let mut spawns = Vec::new();
        let mut starts = Vec::new();
        let mut items = Vec::new();
        let mut teleport_dests = Vec::new();
        let mut path_corners = Vec::new();
        let mut teleport_surfaces = Vec::new();
        let mut pending_teleports: Vec<(usize, Option<String>)> = Vec::new();
        for e in &map.entities {
            let mut k = Keys {
                e,
                warnings: &mut warnings,
            };
            let class = e.classname.as_str();
            let spawnflags = k.f32_or("spawnflags", 0.0).max(0.0) as u32;
            // Quake's ED_LoadFromFile: in deathmatch (a match is one) an entity flagged "not
            // in deathmatch" is never spawned — single-player levels lose their key doors,
            // some items and triggers; the skill flags count only outside deathmatch.
            if spawnflags & SPAWNFLAG_NOT_DEATHMATCH != 0 && class != "worldspawn" {
                continue;
            }
            teleport_surfaces.extend(e.teleport_surfaces.iter().cloned());
            let treated = treatment(class, !e.brushes.is_empty());
            match class {
                _ if treated == Treatment::World => {
                    static_brushes.extend(e.brushes.iter().cloned());
                    wall_names.extend(k.string("targetname"));
                }
                _ if treated == Treatment::Unknown => {
                    k.warnings.push(MapWarning {
                        line: e.line,
                        message: format!(
                            "{class} (entity {}) is a brush entity of a class not known here; \
                             its brushes are solid, as a func_wall's",
                            e.index
                        ),
                    });
                    static_brushes.extend(e.brushes.iter().cloned());
                    wall_names.extend(k.string("targetname"));
                }
                // misc.qc: an episode gate appears only once its episode is completed (the
                // server's episode flags); a match starts with none, so it is not there. The
                // boss gate is the other way round: there until all four are done.
                _ if matches!(treated, Treatment::NotSolid | Treatment::Absent) => {}
                "func_plat" | "func_door" | "func_button" | "func_train" | "func_door_secret" => {
                    let Some((mins, maxs)) = bounds_of(&e.brushes) else {
                        k.warnings.push(MapWarning {
                            line: e.line,
                            message: format!(
                                "{class} (entity {}) has no brushes; skipped",
                                e.index
                            ),
                        });
                        continue;
                    };
                    let size = maxs - mins;
                    let targetname = k.string("targetname");
                    let target = k.string("target");
                    let angle = k.f32_or("angle", 0.0);
                    let (kind, speed, wait, dmg) = match class {
                        "func_plat" => {
                            let height = k.f32_or("height", 0.0);
                            let drop = if height != 0.0 { height } else { size.z - 8.0 };
                            (
                                MoverKind::Plat {
                                    low: Vec3::new(0., 0., -drop),
                                },
                                k.f32_or("speed", 150.0),
                                3.0,
                                1.0,
                            )
                        }
                        "func_door" => {
                            let dir = set_movedir(&mut k);
                            let lip = k.f32_or("lip", 8.0);
                            let open = dir * (dir.dot(size).abs() - lip);
                            let health = k.f32_or("health", 0.0);
                            let locked = spawnflags & (8 | 16) != 0;
                            (
                                MoverKind::Door {
                                    open,
                                    start_open: spawnflags & 1 != 0,
                                    touch_opens: targetname.is_none() && health == 0.0 && !locked,
                                    locked,
                                    no_link: spawnflags & 4 != 0,
                                    shootable: health > 0.0,
                                    toggle: spawnflags & 32 != 0,
                                },
                                k.f32_or("speed", 100.0),
                                k.f32_or("wait", 3.0),
                                k.f32_or("dmg", 2.0),
                            )
                        }
                        "func_button" => {
                            let dir = set_movedir(&mut k);
                            let lip = k.f32_or("lip", 4.0);
                            (
                                MoverKind::Button {
                                    pressed: dir * (dir.dot(size).abs() - lip),
                                    shot: k.f32_or("health", 0.0) > 0.0,
                                },
                                k.f32_or("speed", 40.0),
                                k.f32_or("wait", 1.0),
                                0.0,
                            )
                        }
                        "func_train" => match target.clone() {
                            Some(first) => (
                                MoverKind::Train { first },
                                k.f32_or("speed", 100.0),
                                0.0,
                                k.f32_or("dmg", 2.0),
                            ),
                            None => {
                                k.warnings.push(MapWarning {
                                    line: e.line,
                                    message: format!(
                                        "func_train (entity {}) has no target; it stays put",
                                        e.index
                                    ),
                                });
                                (MoverKind::Fixed, 100.0, 0.0, 2.0)
                            }
                        },
                        "func_door_secret" => {
                            let (first, open) = secret_moves(
                                angle,
                                spawnflags,
                                size,
                                k.f32_or("t_width", 0.0),
                                k.f32_or("t_length", 0.0),
                            );
                            let wait = if spawnflags & 1 != 0 {
                                -1.0
                            } else {
                                k.f32_or("wait", 5.0)
                            };
                            (
                                MoverKind::SecretDoor {
                                    first,
                                    open,
                                    shootable: targetname.is_none() || spawnflags & 16 != 0,
                                },
                                50.0,
                                wait,
                                k.f32_or("dmg", 2.0),
                            )
                        }
                        _ => (MoverKind::Fixed, 0.0, 0.0, 0.0),
                    };
                    let index = movers.len();
                    movers.push(MoverDef {
                        id: EntId(index as u32 + 1),
                        classname: class.to_string(),
                        kind,
                        brushes: e.brushes.clone(),
                        mins,
                        maxs,
                        speed: speed.max(1.0),
                        wait,
                        dmg,
                        targetname,
                        target,
                        killtarget: k.string("killtarget"),
                        delay: k.delay(),
                        linked: vec![index],
                        line: e.line,
                    });
                }
                "trigger_multiple" | "trigger_once" if k.f32_or("health", 0.0) > 0.0 => {
                    // A box players bump into and shots hit: a mover that never moves.
                    let Some((mins, maxs)) = trigger_bounds(e) else {
                        continue;
                    };
                    let wait = if class == "trigger_once" {
                        -1.0
                    } else {
                        k.f32_or("wait", 0.2)
                    };
                    let index = movers.len();
                    movers.push(MoverDef {
                        id: EntId(index as u32 + 1),
                        classname: class.to_string(),
                        kind: MoverKind::ShotTrigger,
                        brushes: vec![Brush::from_box(mins, maxs, Contents::SOLID)],
                        mins,
                        maxs,
                        speed: 1.0,
                        wait,
                        dmg: 0.0,
                        targetname: k.string("targetname"),
                        target: k.string("target"),
                        killtarget: k.string("killtarget"),
                        delay: k.delay(),
                        linked: vec![index],
                        line: e.line,
                    });
                }
                // Point entities in id's code; a brush given to one is never solid nor
                // touched.
                "trigger_relay" | "trigger_counter" => {
                    let kind = if class == "trigger_counter" {
                        // triggers.qc: `if (!self.count) self.count = 2`.
                        match k.f32_or("count", 0.0) as i64 {
                            n if n >= 1 => RelayKind::Counter { count: n as u32 },
                            _ => RelayKind::Counter { count: 2 },
                        }
                    } else {
                        RelayKind::Relay
                    };
                    relays.push(RelayDef {
                        classname: class.to_string(),
                        kind,
                        targetname: k.string("targetname"),
                        target: k.string("target"),
                        killtarget: k.string("killtarget"),
                        delay: k.delay(),
                        line: e.line,
                    });
                }
                c if c.starts_with("trigger_") => {
                    let Some((mins, maxs)) = trigger_bounds(e) else {
                        k.warnings.push(MapWarning {
                            line: e.line,
                            message: format!("{c} (entity {}) has no brushes; skipped", e.index),
                        });
                        continue;
                    };
                    let target = k.string("target");
                    let kind = match c {
                        "trigger_teleport" => {
                            pending_teleports.push((triggers.len(), target.clone()));
                            TriggerKind::Teleport { dest: None }
                        }
                        "trigger_multiple" if k.f32_or("health", 0.0) == 0.0 => {
                            // triggers.qc: `if (!self.wait) self.wait = 0.2`.
                            let wait = k.f32_or("wait", 0.0);
                            TriggerKind::Multiple {
                                wait: if wait == 0.0 { 0.2 } else { wait },
                            }
                        }
                        "trigger_once" if k.f32_or("health", 0.0) == 0.0 => TriggerKind::Once,
                        // The maps are the registered game's: there a player's touch fires
                        // the targets once and removes the trigger (triggers.qc
                        // trigger_onlyregistered_touch with `registered` set; the shareware
                        // game only prints its message). The start map's episode doors open
                        // this way.
                        "trigger_onlyregistered" => TriggerKind::Once,
                        "trigger_hurt" => TriggerKind::Hurt {
                            dmg: k.f32_or("dmg", 5.0),
                        },
                        "trigger_push" => {
                            let speed = k.f32_or("speed", 0.0);
                            // triggers.qc: `if (!self.speed) self.speed = 1000`.
                            let speed = if speed == 0.0 { 1000.0 } else { speed };
                            TriggerKind::Push {
                                velocity: set_movedir(&mut k) * speed * 10.0,
                                once: spawnflags & 1 != 0,
                            }
                        }
                        _ => TriggerKind::Inert,
                    };
                    triggers.push(TriggerDef {
                        classname: c.to_string(),
                        kind,
                        mins,
                        maxs,
                        target,
                        killtarget: k.string("killtarget"),
                        delay: k.delay(),
                        targetname: k.string("targetname"),
                        notouch: matches!(c, "trigger_once" | "trigger_multiple")
                            && spawnflags & 1 != 0,
                        line: e.line,
                    });
                }
                "info_player_deathmatch" | "info_player_start" => {
                    if let Some(o) = k.vec3("origin") {
                        let sp = SpawnPoint {
                            origin: o + Vec3::Z,
                            yaw: k.yaw(),
                        };
                        if class == "info_player_deathmatch" {
                            spawns.push(sp);
                        } else {
                            starts.push(sp);
                        }
                    }
                }
                "path_corner" => {
                    if let (Some(o), Some(name)) = (k.vec3("origin"), k.string("targetname")) {
                        path_corners.push(PathCorner {
                            name,
                            target: k.string("target"),
                            origin: o,
                            wait: k.f32_or("wait", 0.0),
                        });
                    }
                }
                _ => {
                    if let Some(kind) = ItemKind::from_classname(class, spawnflags)
                        && let Some(o) = k.vec3("origin")
                    {
                        items.push(ItemDef {
                            classname: class.to_string(),
                            kind,
                            origin: o,
                            respawn: kind.respawn_seconds(class),
                            spawnflags,
                            line: e.line,
                        });
                    }
                }
            }
        }
        // Teleport destinations: every entity a trigger_teleport targets.
        for (ti, target) in pending_teleports {
            let dest = target.as_ref().and_then(|t| {
                map.entities
                    .iter()
                    .find(|e| e.get("targetname") == Some(t.as_str()))
            });
            match dest {
                Some(d) => {
                    let mut k = Keys {
                        e: d,
                        warnings: &mut warnings,
                    };
                    if let Some(o) = k.vec3("origin") {
                        let yaw = k.yaw();
                        let name = target.clone().unwrap_or_default();
                        let idx = match teleport_dests
                            .iter()
                            .position(|t: &TeleportDest| t.name == name)
                        {
                            Some(i) => i,
                            None => {
                                teleport_dests.push(TeleportDest {
                                    name,
                                    origin: o + Vec3::new(0., 0., 27.),
                                    yaw,
                                });
                                teleport_dests.len() - 1
                            }
                        };
                        triggers[ti].kind = TriggerKind::Teleport { dest: Some(idx) };
                    }
                }
                None => warnings.push(MapWarning {
                    line: triggers[ti].line,
                    message: format!(
                        "trigger_teleport targets {:?}, which no entity is named; it does nothing",
                        target.unwrap_or_default()
                    ),
                }),
            }
        }
        link_doors(&mut movers);
        // A killtarget removes triggers, relays and counters (the game's `kill_named`); brush
        // entities it names stay, which the map's author should hear of.
        let killers = (triggers.iter().map(|t| (&t.killtarget, t.line)))
            .chain(relays.iter().map(|r: &RelayDef| (&r.killtarget, r.line)))
            .chain(movers.iter().map(|m| (&m.killtarget, m.line)));
        for (kt, line) in killers {
            let Some(kt) = kt else { continue };
            let brush = movers
                .iter()
                .find(|m| m.targetname.as_ref() == Some(kt))
                .map(|m| m.classname.clone())
                .or_else(|| wall_names.contains(kt).then(|| "func_wall".to_string()));
            if let Some(class) = brush {
                warnings.push(MapWarning {
                    line,
                    message: format!(
                        "killtarget \"{kt}\" names a {class}: removing brush entities is not \
                         simulated; it stays"
                    ),
                });
            }
        }
        // Plats and door groups make their own trigger volumes (plats.qc, doors.qc).
        for (i, m) in movers.iter().enumerate() {
            match &m.kind {
                MoverKind::Plat { low } => {
                    let mut tmin = m.mins + Vec3::new(25., 25., 0.);
                    let mut tmax = m.maxs - Vec3::new(25., 25., -8.);
                    tmin.z = tmax.z - (-low.z + 8.0);
                    let size = m.maxs - m.mins;
                    if size.x <= 50.0 {
                        tmin.x = (m.mins.x + m.maxs.x) / 2.0;
                        tmax.x = tmin.x + 1.0;
                    }
                    if size.y <= 50.0 {
                        tmin.y = (m.mins.y + m.maxs.y) / 2.0;
                        tmax.y = tmin.y + 1.0;
                    }
                    triggers.push(TriggerDef {
                        classname: "plat_trigger".into(),
                        kind: TriggerKind::PlatRaise { mover: i },
                        mins: tmin,
                        maxs: tmax,
                        target: None,
                        killtarget: None,
                        delay: 0.0,
                        targetname: None,
                        notouch: false,
                        line: 0,
                    });
                }
                MoverKind::Door {
                    touch_opens: true, ..
                } if m.linked.first() == Some(&i) => {
                    let mut mn = m.mins;
                    let mut mx = m.maxs;
                    for &j in &m.linked {
                        mn = mn.min(movers[j].mins);
                        mx = mx.max(movers[j].maxs);
                    }
                    triggers.push(TriggerDef {
                        classname: "door_trigger".into(),
                        kind: TriggerKind::DoorField { mover: i },
                        mins: mn - Vec3::new(60., 60., 8.),
                        maxs: mx + Vec3::new(60., 60., 8.),
                        target: None,
                        killtarget: None,
                        delay: 0.0,
                        targetname: None,
                        notouch: false,
                        line: 0,
                    });
                }
                _ => {}
            }
        }
        if spawns.is_empty() {
            spawns = starts;
        }
        map.warnings = warnings;
        Level {
            map,
            static_brushes,
            movers,
            triggers,
            relays,
            spawns,
            items,
            teleport_dests,
            path_corners,
            teleport_surfaces,
        }
    }
}

/// Quake's LinkDoors: doors whose boxes touch move together unless spawnflag 4 is set.
pub(super) fn link_doors(movers: &mut [MoverDef]) {
    let doors: Vec<usize> = (0..movers.len())
        .filter(|&i| matches!(movers[i].kind, MoverKind::Door { .. }))
        .collect();
    // Union-find over touching door boxes, smallest index as the group's root.
    let mut parent: Vec<usize> = (0..movers.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let dont_link = |m: &MoverDef| matches!(&m.kind, MoverKind::Door { no_link: true, .. });
    for (a_i, &a) in doors.iter().enumerate() {
        for &b in &doors[a_i + 1..] {
            let (ma, mb) = (&movers[a], &movers[b]);
            if dont_link(ma) || dont_link(mb) {
                continue;
            }
            let touch = ma.mins.x <= mb.maxs.x
                && ma.maxs.x >= mb.mins.x
                && ma.mins.y <= mb.maxs.y
                && ma.maxs.y >= mb.mins.y
                && ma.mins.z <= mb.maxs.z
                && ma.maxs.z >= mb.mins.z;
            if touch {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                parent[hi] = lo;
            }
        }
    }
    for &d in &doors {
        let root = find(&mut parent, d);
        let group: Vec<usize> = doors
            .iter()
            .copied()
            .filter(|&x| find(&mut parent, x) == root)
            .collect();
        movers[d].linked = group;
    }
    // LinkDoors gives the group's owner the health and the targetname of any door in it,
    // and spawns no trigger field for an owner with either: damage to any of them reaches
    // the owner and the whole group is shot open; a group with a named door opens only when
    // that name is fired (in a pair where one door is named, its partner alone would open
    // at a touch).
    for &d in &doors {
        let linked = &movers[d].linked;
        let shot = linked.iter().any(|&j| {
            matches!(
                movers[j].kind,
                MoverKind::Door {
                    shootable: true,
                    ..
                }
            )
        });
        let named = linked.iter().any(|&j| movers[j].targetname.is_some());
        if let MoverKind::Door {
            shootable,
            touch_opens,
            ..
        } = &mut movers[d].kind
        {
            if shot {
                *shootable = true;
            }
            if shot || named {
                *touch_opens = false;
            }
        }
    }
}
