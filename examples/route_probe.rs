//! Profiling aid: 32 brain bots on dm4 for 200 ticks (`cargo run --release --example route_probe`).
fn main() {
    let dm4 = std::path::Path::new("../shared/quake-maps/dm4.map");
    let mut m = botarena::bench::bench_match(dm4, 32, 1, 1).unwrap();
    for _ in 0..200 {
        m.step();
    }
    for (k, v) in m.timings.breakdown() {
        println!("{k} {v:.3}");
    }
}
