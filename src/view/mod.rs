//! Watching a match: frames re-simulated from a replay ([`frames`]) and the self-contained
//! HTML page that plays them ([`page`]).
//!
//! The page's sources are real files beside this module (`page/viewer.html`, `viewer.css`,
//! `viewer.js`: plain, dependency-free JavaScript drawing on a 2D canvas) embedded into the
//! binary at build time, so the written page needs no network and no other file.

pub mod frames;
pub mod page;

pub use frames::{Frames, FramesError};
