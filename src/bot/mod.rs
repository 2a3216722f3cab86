//! Bot systems.
