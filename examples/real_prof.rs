//! A real deathmatch for profiling (the `bench` real case without its clock): `bots` brain
//! bots on MAP, `warm` ticks, then `ticks` more; prints the state hash at the end, so that
//! an optimisation is checked to leave the match as it was.
//!
//!     cargo run --release --example real_prof -- MAP BOTS WARM TICKS [THREADS]
//!
//! Under `valgrind --tool=callgrind`, run it twice (TICKS 0 and N): the difference in
//! instructions is the timed ticks' alone, whatever else the machine is doing.

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        return Err("usage: real_prof MAP BOTS WARM TICKS [THREADS]".into());
    }
    let num = |i: usize| {
        args[i]
            .parse::<u64>()
            .map_err(|e| format!("{}: {e}", args[i]))
    };
    let (bots, warm, ticks) = (num(2)? as usize, num(3)?, num(4)?);
    let threads = if args.len() > 5 { num(5)? as usize } else { 1 };
    let mut m = botarena::bench::real_match(std::path::Path::new(&args[1]), bots, threads, 1)?;
    for _ in 0..warm + ticks {
        m.step();
    }
    println!("{:016x}", m.state_hash());
    Ok(())
}
