//! The `botarena` binary: the command line ([`cli`]) over the library.

mod cli;

fn main() -> std::process::ExitCode {
    // A reader that closes the pipe early (`botarena run --json | head`) ends the command
    // quietly, as it ends `cat`: SIGPIPE's default action, which Rust's runtime replaces
    // with "ignore" (every print after would fail, and `println!` panics).
    sigpipe::reset();
    cli::main()
}
