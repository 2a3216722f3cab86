//! `botarena lint`: a map's flow checked for level designers (unreachable items, far spawn
//! points, one-way traps, items only a lift or a long fall leads to), as text, JSON or SVG.

use std::path::PathBuf;

use botarena::aas::{CompileParams, compile};
use botarena::lint::{LintParams, lint};
use botarena::map::load_level;
use botarena::render::{Mark, Overlay, render_map};

use super::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// Its compiled navigation (`botarena nav compile`); compiled here when not given.
    #[arg(long)]
    nav: Option<PathBuf>,
    /// A spawn point whose nearest weapon is more than this many seconds away is flagged.
    #[arg(long, default_value_t = 10.0)]
    far_seconds: f32,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the findings over the map (SVG): unreachable items red, items only a lift
    /// or long fall leads to orange, traps purple, spawns blue with their nearest weapon's
    /// time.
    #[arg(long)]
    svg: Option<PathBuf>,
}

pub fn run(args: Args) -> Outcome {
    if !(args.far_seconds.is_finite() && args.far_seconds > 0.0) {
        return Err(format!(
            "--far-seconds {}: must be a positive number",
            args.far_seconds
        )
        .into());
    }
    let (level, cmap) = load_level(&args.map)?;
    let mesh = match &args.nav {
        Some(f) => botarena::aas::file::load_for(f, &level)?,
        None => compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {})?,
    };
    let report = lint(
        &level,
        &cmap,
        &mesh,
        LintParams {
            far_seconds: args.far_seconds,
        },
    );
    if let Some(out) = &args.svg {
        let mut marks: Vec<Mark> = report
            .findings
            .iter()
            .filter(|f| f.kind != "one_way_trap" && f.kind != "far_spawn")
            .map(|f| Mark {
                at: f.at,
                label: f.message.split(" at ").next().unwrap_or("").to_string(),
                colour: if f.kind.starts_with("only_by") {
                    "#f08c00"
                } else {
                    "#e03131"
                },
            })
            .collect();
        marks.extend(report.spawns.iter().map(|s| {
            Mark {
                at: s.origin,
                label: match &s.nearest_weapon {
                    Some((_, t)) => format!("{t:.1} s"),
                    None => "no weapon".into(),
                },
                colour: if report
                    .findings
                    .iter()
                    .any(|f| f.kind == "far_spawn" && f.at == s.origin)
                {
                    "#e03131"
                } else {
                    "#1971c2"
                },
            }
        }));
        let boxes: Vec<_> = report
            .traps
            .iter()
            .map(|t| (t.mins, t.maxs, "#9c36b5"))
            .collect();
        let caption = format!("lint: {} finding(s)", report.findings.len());
        let svg = render_map(
            &level,
            &Overlay {
                marks: &marks,
                boxes: &boxes,
                caption: Some(&caption),
                ..Default::default()
            },
            1200.0,
        );
        std::fs::write(out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
        if !args.json {
            println!("wrote {}", out.display());
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}
