//! `botarena reach`: where a player gets from an item within some seconds, drawn.

use std::path::PathBuf;

use botarena::map::load_level;
use botarena::planner::times::{items, reach_tree, select};
use botarena::render::{TreeDrawing, render_tree};

use super::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// The item to start at (index, class or class#k).
    #[arg(long)]
    from: String,
    /// Seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f32,
    /// Expansions of the tree.
    #[arg(long, default_value_t = 20000)]
    samples: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The picture to write.
    #[arg(long)]
    svg: PathBuf,
    /// Gravity integration: `exact` (the parabola at any tick rate; default) or `quake`
    /// (QuakeWorld's at the planner's 20 steps a second).
    #[arg(long, default_value = "exact")]
    integration: String,
}

pub fn run(args: Args) -> Outcome {
    let Args {
        map,
        from,
        seconds,
        samples,
        seed,
        svg,
        integration,
    } = args;
    let physics = botarena::physics::PhysicsParams {
        integration: botarena::physics::pmove::Integration::from_name(&integration)
            .map_err(|m| format!("--integration {m}"))?,
        ..Default::default()
    };
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("--seconds {seconds}: must be a positive number").into());
    }
    let (level, cmap) = load_level(&map)?;
    let all = items(&level, &cmap);
    let f = select(&all, &[from])?;
    let fa = &all[f[0]];
    let plan = reach_tree(&level, &cmap, fa, samples, seed, &physics);
    let within = plan
        .nodes
        .iter()
        .filter(|n| n.steps as f32 * plan.step <= seconds)
        .count();
    let caption = format!(
        "reached from {} within {seconds} s ({within} of {} states)",
        fa.label,
        plan.nodes.len()
    );
    let drawing = TreeDrawing::of_plan(&plan, Some(seconds), caption);
    super::write_out(&svg, render_tree(&level, &drawing))?;
    println!(
        "{within} states within {seconds} s of {} ({} expansions)",
        fa.label, plan.expansions,
    );
    eprintln!("wrote {}", svg.display());
    Ok(())
}
