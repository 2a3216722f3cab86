//! Running jumps and falls across gaps: the run-up to a ledge ([`run_up`]), where a jump or
//! fall comes down ([`landing`], [`landings`]) and the gap candidates ([`gaps`]).

use std::collections::BTreeMap;

use glam::Vec2;

use crate::physics::pmove::{PhysicsParams, UserCmd, pmove};

use super::ctx::{Ctx, Job};
use super::ctx::{MAX_GAP, MAX_JUMP_UP, STEP_DROP, keep_quickest, same_world};
use super::movers::needs;
use super::replay::{LANDING_SECONDS, landing};
use super::replay::{carrier_of, run_cmd, settle, simulate};
use super::touching::{EIGHT, border_steps, heights, offset_cell};
use crate::aas::mesh::{AreaFlags, CmdRun, CompileStats, MoverNeed, NavMesh, Reach, ReachKind};
use crate::aas::world::{NavWorld, par_map};

impl Ctx<'_> {
    pub(super) fn gap(
        &self,
        from: u32,
        to: u32,
        cell: u32,
        dir: (i32, i32),
        ticks: &mut u64,
    ) -> Option<Reach> {
        let d = Vec2::new(dir.0 as f32, dir.1 as f32).normalize();
        let cxy = self.cell_xy(cell);
        let step = d * self.mesh.frame.cell;
        // A run-up of up to eight cells back over level floor (through other areas: ledge
        // strips are narrow); the reachability starts in the area the run-up starts in.
        let z = self.mesh.areas()[from as usize].floor_z(cxy);
        let start = (0..=8).rev().map(|k| cxy - step * k as f32).find_map(|p| {
            let a = self.mesh.area_at(p.extend(z + 1.0))?;
            let area = &self.mesh.areas()[a as usize];
            if area.is_swim() || (area.floor_z(p) - z).abs() > 2.0 {
                return None;
            }
            self.start_in(a, p)
        })?;
        let from = self.mesh.area_at(start.origin)?;
        if from == to || !self.here(from) {
            return None;
        }
        let target = cxy + d * MAX_GAP;
        let run = run_cmd(start.origin, target.extend(start.origin.z), false, false);
        let leap = UserCmd { jump: true, ..run };
        // The run-up, until the runner leaves the ledge's area or the ground.
        let mut states = vec![start];
        let mut s = start;
        for _ in 0..self.max_ticks(1.5) {
            *ticks += 1;
            s = pmove(
                &s,
                &run,
                self.cmap(),
                &PhysicsParams::default(),
                self.dt,
                None,
            )
            .0;
            if s.on_ground.is_none() || self.mesh.area_at(s.origin) == Some(to) {
                break;
            }
            states.push(s);
        }
        let flight = self.max_ticks(2.5);
        // Running `k` ticks, then the leap.
        let jump_after = |k: usize| {
            let mut commands = Vec::new();
            if k > 0 {
                commands.push(CmdRun {
                    ticks: k as u32,
                    cmd: run,
                });
            }
            commands.push(CmdRun {
                ticks: flight,
                cmd: leap,
            });
            commands
        };
        for k in (0..states.len()).rev().take(3) {
            if let Some((arr, cmds)) = self.run(start, jump_after(k), None, Some(to), ticks) {
                return self.make((from, to, ReachKind::Jump), &start, &arr, cmds);
            }
        }
        // Where every jump carries the runner past the floor across (a low, narrow one),
        // running off the edge without jumping may come down on it.
        let commands = vec![CmdRun {
            ticks: states.len() as u32 + flight,
            cmd: run,
        }];
        // (A fall across the gap, however little lower it lands.)
        if let Some((arr, cmds)) = self.run(start, commands, None, Some(to), ticks)
            && self.lands_in(&arr, run.yaw, to, ticks)
        {
            return self.make((from, to, ReachKind::WalkOffLedge), &start, &arr, cmds);
        }
        // A jump that carries the runner past the first floor across (a narrow ledge on the
        // far side) is kept as a jump to where it comes down, as falls are.
        let commands = jump_after(states.len() - 1);
        let bad = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
        let landed = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, sent| {
                sent.is_none()
                    && s.on_ground.is_some()
                    && (s.origin.truncate() - cxy).dot(d) > self.mesh.frame.cell
                    && self.mesh.area_at(s.origin).is_some_and(|l| {
                        l != from
                            && self.here(l)
                            && self.mesh.areas()[l as usize].flags.0 & bad == 0
                    })
            },
            ticks,
        )?;
        let to = self.mesh.area_at(landed.state.origin)?;
        let (arr, cmds) = self.run(start, commands, None, Some(to), ticks)?;
        self.make((from, to, ReachKind::Jump), &start, &arr, cmds)
    }
}

/// Running-jump candidates from ledge areas' border cells, by (from, to): the nearest.
pub(super) fn gaps(mesh: &NavMesh, walkable: &std::collections::BTreeSet<(u32, u32)>) -> Vec<Job> {
    let f = &mesh.frame;
    let areas = mesh.areas();
    // (from, to) -> (cells away, ledge cell, direction)
    type Nearest = (i32, u32, (i32, i32));
    let mut best: BTreeMap<(u32, u32), Nearest> = BTreeMap::new();
    let bad = AreaFlags::LAVA.0 | AreaFlags::SLIME.0 | AreaFlags::SWIM.0;
    for a in areas.iter().filter(|a| a.flags.has(AreaFlags::LEDGE)) {
        for (c, dir, n1) in border_steps(mesh, a, &EIGHT) {
            let (z, _) = heights(mesh, a.id, c);
            // A drop right beside: no floor within a step there (lava and slime are no
            // floor: walking in is not a way across).
            let level = mesh.areas_in_cell(n1 % f.nx, n1 / f.nx).iter().any(|&b| {
                let (lo, hi) = heights(mesh, b, n1);
                areas[b as usize].flags.0 & (AreaFlags::LAVA.0 | AreaFlags::SLIME.0) == 0
                    && hi >= z - STEP_DROP
                    && lo <= z + STEP_DROP
            });
            if level {
                continue;
            }
            let diag = if dir.0 != 0 && dir.1 != 0 {
                std::f32::consts::SQRT_2
            } else {
                1.0
            };
            let kmax = (MAX_GAP / (f.cell * diag)) as i32;
            'scan: for k in 2..=kmax {
                let Some(n) = offset_cell(mesh, c, dir, k) else {
                    break;
                };
                for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                    let area = &areas[b as usize];
                    if b == a.id || area.flags.0 & bad != 0 {
                        continue;
                    }
                    let (bz, _) = heights(mesh, b, n);
                    if bz > z + MAX_JUMP_UP || bz < z - 64.0 {
                        continue;
                    }
                    if !walkable.contains(&(a.id, b)) && same_world(mesh, a.id, b) {
                        let e = best.entry((a.id, b)).or_insert((k, c, dir));
                        if k < e.0 {
                            *e = (k, c, dir);
                        }
                    }
                    break 'scan;
                }
            }
        }
    }
    best.into_iter()
        .map(|((from, to), (_, cell, dir))| Job::Gap {
            from,
            to,
            cell,
            dir,
        })
        .collect()
}

/// Cells of run-up tried behind a jump's start (8 units each at the default cell).
pub(super) const RUN_UP_CELLS: u32 = 8;

/// A jump `r` that does not land where it leads from a standing start, taken with a
/// run-up instead: from a standing start up to [`RUN_UP_CELLS`] cells behind its start
/// (along the jump's heading, on the start's level, the nearest first), running the jump's
/// heading until about where it started and then its commands, jumping a tick earlier or
/// later too. The first that arrives in its end area and lands there (or in an area a
/// walk joins to it) is the jump as it is to be played, from the area its run-up starts
/// in; `None` when none does.
pub(super) fn run_up(
    ctx: &Ctx,
    r: &Reach,
    lands: &dyn Fn(&Reach, &mut u64) -> Option<u32>,
    ticks: &mut u64,
) -> Option<Reach> {
    let first = r.commands.first()?.cmd;
    let dir = Vec2::from_angle(first.yaw.to_radians());
    let run = UserCmd {
        jump: false,
        up_move: 0.0,
        ..first
    };
    let cell = ctx.mesh.frame.cell;
    for k in 1..=RUN_UP_CELLS {
        let p = r.start.truncate() - dir * cell * k as f32;
        let Some(from) = ctx.mesh.area_at(p.extend(r.start.z + 1.0)) else {
            break;
        };
        let fa = &ctx.mesh.areas()[from as usize];
        if fa.is_swim() || !ctx.here(from) || from == r.to {
            break;
        }
        let Some(start) = ctx.start_in(from, p) else {
            continue;
        };
        if (start.origin.z - r.start.z).abs() > 2.0 {
            break;
        }
        // Ticks of running until the runner is about where the jump started.
        let mut q = start;
        let mut reach_ticks = None;
        for t in 1..=ctx.max_ticks(1.0) {
            *ticks += 1;
            q = pmove(
                &q,
                &run,
                ctx.cmap(),
                &PhysicsParams::default(),
                ctx.dt,
                None,
            )
            .0;
            if q.on_ground.is_none() {
                break;
            }
            if (q.origin.truncate() - r.start.truncate()).dot(dir) >= 0.0 {
                reach_ticks = Some(t);
                break;
            }
        }
        let Some(n) = reach_ticks else {
            continue;
        };
        for j in [n, n - 1, n + 1] {
            if j == 0 {
                continue;
            }
            let mut commands = vec![CmdRun { ticks: j, cmd: run }];
            commands.extend(r.commands.iter().copied());
            // Time for the fall after: the stored commands stop where the stand's run
            // arrived, which a quicker jump passes sooner.
            if let Some(last) = commands.last_mut() {
                last.ticks += ctx.max_ticks(1.0);
            }
            let Some((arr, cmds)) = ctx.run(start, commands, None, Some(r.to), ticks) else {
                continue;
            };
            let Some(jumped) = ctx.make((from, r.to, r.kind), &start, &arr, cmds) else {
                continue;
            };
            if lands(&jumped, ticks).is_some_and(|l| ctx.mesh.walk_joined(r.to, l)) {
                return Some(jumped);
            }
        }
    }
    None
}

/// Shares of a fall's running speed tried, fastest first, when at full speed it lands
/// beyond its end area.
pub(super) const SLOWER_FALLS: [f32; 8] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.25, 0.15];

/// What the landing pass did with one reachability.
pub(super) enum Landed {
    /// It lands in its end area or one a walk joins to it.
    Keep,
    /// It lands elsewhere: the reachability to where it lands instead.
    Moved(Reach),
    /// It lands nowhere a route can go on from.
    Drop,
}

/// The compile's last pass, over the walks off ledges: a run's arrival is the first tick it
/// is over its end area coming down, but a long fall at running speed comes down over an
/// area and lands far beyond it (a bot that plays it lands there, and the route it planned
/// is wrong). Each is replayed from its start to its arrival and held still until it lands,
/// as a bot checks a run before playing it. One that lands in its end area, or in an area a
/// walk joins to it, is kept; one that lands elsewhere is tried walking off slower
/// ([`SLOWER_FALLS`]: the fall lands nearer), and else becomes the reachability to where it
/// lands (its commands run on, the last one held, to the first tick over that area) when
/// that one lands there in turn, and is dropped otherwise. Jumps are left as they are: one
/// that tops out over a ledge from a stand may make it from a run, which a bot tries
/// (checking them too lost ways up onto ledges that only a running jump reaches). `given`:
/// the reachabilities checked (those of the earlier passes, or the near drops); `mesh`
/// holds the ones whose walks join areas. Returns `given` as they are to be (duplicates by
/// (from, to, kind): the quickest).
pub(crate) fn landings(
    world: &NavWorld,
    mesh: &NavMesh,
    given: &[Reach],
    threads: usize,
    stats: &mut CompileStats,
) -> Vec<Reach> {
    let dt = 1.0 / mesh.params.tick_rate as f32;
    let ids: Vec<usize> = (0..given.len()).collect();
    let check = |&i: &usize| -> (Landed, u64) {
        let mut ticks = 0u64;
        let r = &given[i];
        let jump = matches!(r.kind, ReachKind::Jump | ReachKind::BarrierJump);
        if !(r.kind == ReachKind::WalkOffLedge || jump) || carrier_of(world, mesh, r).is_some() {
            return (Landed::Keep, 0);
        }
        let moved = r.needs.iter().find_map(|n| match n {
            MoverNeed::Moved(id) => Some(*id),
            _ => None,
        });
        let ctx = Ctx {
            world,
            mesh,
            dt,
            moved,
            walks: None,
        };
        // The area a replay of `r` lands in.
        let lands = |r: &Reach, ticks: &mut u64| {
            let from = &mesh.areas()[r.from as usize];
            let start = settle(ctx.cmap(), r.start, from.is_swim());
            let (arr, _) = ctx.run(start, r.commands.clone(), None, Some(r.to), ticks)?;
            let yaw = r.commands.last().map_or(start.yaw, |c| c.cmd.yaw);
            let s = landing((world, ctx.cmap()), arr.state, yaw, dt, ticks)?;
            mesh.area_at(s.origin)
        };
        let landed = lands(r, &mut ticks);
        if landed.is_some_and(|l| mesh.walk_joined(r.to, l)) {
            return (Landed::Keep, ticks);
        }
        if jump {
            // A jump that tops out over its end area from a stand and falls back: with a
            // run-up, as a player takes it.
            if let Some(mut run) = run_up(&ctx, r, &lands, &mut ticks) {
                needs(world, mesh, moved, &mut run);
                return (Landed::Moved(run), ticks);
            }
        }
        let Some(l) = landed else {
            return (Landed::Drop, ticks);
        };
        let from = &mesh.areas()[r.from as usize];
        let start = settle(ctx.cmap(), r.start, from.is_swim());
        // Walked off slower, the fall lands nearer: the slowest speed that still lands
        // where the route goes on keeps the reachability to its end area.
        for speed in SLOWER_FALLS.into_iter().filter(|_| !jump) {
            let commands: Vec<CmdRun> = r
                .commands
                .iter()
                .map(|c| CmdRun {
                    ticks: c.ticks + ctx.max_ticks(1.0),
                    cmd: UserCmd {
                        forward_move: c.cmd.forward_move * speed,
                        ..c.cmd
                    },
                })
                .collect();
            let Some((arr, cmds)) = ctx.run(start, commands, None, Some(r.to), &mut ticks) else {
                continue;
            };
            let Some(mut slower) = ctx.make((r.from, r.to, r.kind), &start, &arr, cmds) else {
                continue;
            };
            if lands(&slower, &mut ticks).is_some_and(|again| mesh.walk_joined(r.to, again)) {
                needs(world, mesh, moved, &mut slower);
                return (Landed::Moved(slower), ticks);
            }
        }
        // Landing back where it started, somewhere not there with the movers as they
        // are, or in lava or slime (a jump that misses its ledge and falls into the pit
        // is no way anywhere): dropped.
        let deadly = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
        if l == r.from || !ctx.here(l) || mesh.areas()[l as usize].flags.0 & deadly != 0 {
            return (Landed::Drop, ticks);
        }
        let mut commands = r.commands.clone();
        if let Some(last) = commands.last_mut() {
            last.ticks += ctx.max_ticks(LANDING_SECONDS);
        }
        let Some((arr, cmds)) = ctx.run(start, commands, None, Some(l), &mut ticks) else {
            return (Landed::Drop, ticks);
        };
        let Some(mut moved_to) = ctx.make((r.from, l, r.kind), &start, &arr, cmds) else {
            return (Landed::Drop, ticks);
        };
        needs(world, mesh, moved, &mut moved_to);
        match lands(&moved_to, &mut ticks) {
            Some(again) if mesh.walk_joined(l, again) => (Landed::Moved(moved_to), ticks),
            _ => (Landed::Drop, ticks),
        }
    };
    let done = par_map(&ids, threads, check, |_| {});
    let mut reaches = Vec::with_capacity(ids.len());
    for (r, (landed, ticks)) in given.iter().zip(done) {
        stats.ticks_simulated += ticks;
        match landed {
            Landed::Keep => reaches.push(r.clone()),
            Landed::Moved(m) => reaches.push(m),
            Landed::Drop => stats.dropped += 1,
        }
    }
    keep_quickest(&mut reaches);
    reaches
}
