//! Sets the `linked_languages` cfg: the page's catalogs of Vietnamese, Indonesian, Russian and
//! Polish messages are compiled in everywhere except the page's wasm module, which fetches
//! them as bundles (`src/i18n/bundle.rs`) and keeps only English. The browser component tests
//! take them back with the `linked-languages` feature (`make test-wasm`).
//!
//! With the `split` feature, the page's wasm binary is linked with its relocations, which the
//! post-build split reads (crates/page-split).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(linked_languages)");
    println!("cargo::rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let linked = std::env::var_os("CARGO_FEATURE_LINKED_LANGUAGES").is_some();
    if !wasm || linked {
        println!("cargo::rustc-cfg=linked_languages");
    }
    // The split (the `split` feature, crates/page-split) reads the linker's relocations to
    // move functions between modules: the page's binary keeps them.
    if wasm && std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
}
