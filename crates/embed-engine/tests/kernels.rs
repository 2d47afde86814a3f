//! The encoder's dot products as this module runs them (in wasm with the `simd128` feature:
//! `embed_core::ops`'s SIMD path; natively: its scalar path) equal, bit for bit, the scalar
//! definition written out here: eight accumulators `acc[k mod 8]`, summed
//! `((a0+a4)+(a1+a5)) + ((a2+a6)+(a3+a7))`, plus the tail in order. Widths and row counts with
//! a tail (not a multiple of 8) and a rest of rows (not a multiple of 4), which
//! all-MiniLM-L6-v2's widths (384, 1536) never exercise.
//!
//! Natively with `cargo test`; in wasm (Node) with
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --target
//! wasm32-unknown-unknown -p embed-engine --test kernels` (`make test-wasm`).

use embed_core::ops::{axpy, dot, Linear};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// The scalar dot product, as `embed_core::ops::dot` defines it.
fn dot_reference(a: &[f32], b: impl Fn(usize) -> f32) -> f32 {
    let whole = a.len() / 8 * 8;
    let tail: f32 = (whole..a.len()).map(|i| a[i] * b(i)).sum();
    let mut acc = [0f32; 8];
    for (i, x) in a[..whole].iter().enumerate() {
        acc[i % 8] += x * b(i);
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// Values with every kind of rounding: a fixed sequence over several magnitudes and signs.
fn values(n: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..n)
        .map(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let unit = (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5;
            unit * [1.0, 0.01, 37.0, 1e-4][i % 4]
        })
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn dot_and_axpy_equal_the_scalar_definition() {
    for n in [0, 1, 7, 8, 9, 31, 32, 33, 384] {
        let (a, b) = (values(n, 1), values(n, 2));
        assert_eq!(
            dot(&a, &b).to_bits(),
            dot_reference(&a, |i| b[i]).to_bits(),
            "dot of {n}"
        );
        let mut out = values(n, 3);
        let want: Vec<f32> = out.iter().zip(&b).map(|(o, x)| o + 0.37 * x).collect();
        axpy(&mut out, 0.37, &b);
        assert_eq!(bits(&out), bits(&want), "axpy of {n}");
    }
}

#[test]
fn linear_layers_equal_the_scalar_definition_fp32_and_int8() {
    for (input, output) in [(13, 3), (8, 5), (24, 2), (5, 4)] {
        let w = values(input * output, 4);
        let b = values(output, 5);
        let fp32 = Linear::F32 {
            w: w.clone(),
            b: b.clone(),
            input,
        };
        let int8 = fp32.quantize_int8();
        let Linear::Int8 { q, scale, .. } = &int8 else {
            panic!("not int8")
        };
        for rows in 1..=9 {
            let x = values(rows * input, 6 + rows as u32);
            let mut want_f32 = Vec::new();
            let mut want_i8 = Vec::new();
            for r in 0..rows {
                let xr = &x[r * input..(r + 1) * input];
                for o in 0..output {
                    want_f32.push(dot_reference(xr, |i| w[o * input + i]) + b[o]);
                    want_i8
                        .push(dot_reference(xr, |i| f32::from(q[o * input + i])) * scale[o] + b[o]);
                }
            }
            let mut y = Vec::new();
            fp32.apply(&x, &mut y);
            assert_eq!(bits(&y), bits(&want_f32), "fp32 {rows}×{input} → {output}");
            int8.apply(&x, &mut y);
            assert_eq!(bits(&y), bits(&want_i8), "int8 {rows}×{input} → {output}");
        }
    }
}
