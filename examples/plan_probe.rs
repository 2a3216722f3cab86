//! Diagnostics for the planner on the proving ground: `cargo run --release --example plan_probe -- LANE CLASS EXPANSIONS`.
use botarena::planner::PlanConfig;
use botarena::planner::times::{ItemRef, items, plan_pair};
use glam::Vec3;
use std::sync::Arc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let lane: usize = a[1].parse().unwrap();
    let (level, cmap) = botarena::map::build_level(
        botarena::MapData::load(std::path::Path::new("maps/proving.map")).unwrap(),
    );
    let level = Arc::new(level);
    let all = items(&level, &cmap);
    let goal = all.iter().find(|r| r.class == a[2]).unwrap();
    let p = Vec3::new(64.0, lane as f32 * 256.0 + 96.0, 25.0);
    let from = ItemRef {
        index: a.get(4).and_then(|s| s.parse().ok()).unwrap_or(999),
        class: "s".into(),
        label: "s".into(),
        stand: p,
        goal: goal.goal,
    };
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let cfg = PlanConfig {
        expansions: a[3].parse().unwrap(),
        seed: 9,
        ..Default::default()
    };
    let plan = plan_pair(&cmap, &Default::default(), &free, &from, goal, &cfg);
    println!(
        "time {:?} nodes {} first {:?} goal {:?}",
        plan.time(),
        plan.nodes.len(),
        plan.first_at,
        goal.goal
    );
    let maxx = plan
        .nodes
        .iter()
        .map(|n| n.state.origin.x)
        .fold(0.0f32, f32::max);
    println!("max x {maxx}");
    for (i, n) in plan
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.state.origin.x > 1850.0)
        .take(15)
    {
        println!(
            "{i} parent {} steps {} {:?} v {:?} cmd f{} s{} y{:.0} j{}",
            n.parent as i64,
            n.steps,
            n.state.origin,
            n.state.velocity,
            n.cmd.forward_move,
            n.cmd.side_move,
            n.cmd.yaw,
            n.cmd.jump
        );
    }
}
