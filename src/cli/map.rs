//! `botarena map info`: a map's statistics.

use std::path::PathBuf;

use clap::Subcommand;

use botarena::map::info::MapInfo;
use botarena::map::load_level;

use super::Outcome;

#[derive(Subcommand)]
pub enum Command {
    /// Brush, entity-by-class, liquid and trigger counts, bounds and load warnings.
    Info {
        /// The .map file.
        file: PathBuf,
        /// Print as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: Command) -> Outcome {
    let Command::Info { file, json } = cmd;
    let (level, cmap) = load_level(&file)?;
    let info = MapInfo::new(&level, &cmap);
    if json {
        println!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        print!("{}", info.to_text());
    }
    Ok(())
}
