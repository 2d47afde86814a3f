//! The arithmetic of the encoder: linear layers (fp32 and int8 weights), layer normalisation,
//! GELU and the row softmax. Row-major `f32` slices throughout; `n` rows of `width` values.
//!
//! With the `simd128` feature on wasm32, the dot products of the linear layers and of the
//! attention ([`dot`], [`Linear::apply`], [`axpy`]) use wasm SIMD (`core::arch::wasm32`): the
//! same multiplications and additions in the same order, so the results are the scalar path's
//! bit for bit; a linear layer also reads each weight row once for four input rows. Elsewhere
//! (natively, or without the feature) the scalar code below runs.

/// A linear layer `y = x · Wᵀ + b`, its weight `out × in` row-major as PyTorch's `nn.Linear`
/// stores it (each output's weights contiguous, so every output is one dot product).
#[derive(Debug, Clone)]
pub enum Linear {
    /// The published weights.
    F32 {
        /// `out × in`, row-major.
        w: Vec<f32>,
        /// `out`.
        b: Vec<f32>,
        /// Input width.
        input: usize,
    },
    /// Weights quantized per output row, symmetric: `w ≈ q × scale[row]` with `q` in
    /// −127…127 and `scale[row] = max |w[row]| / 127` ([`Linear::quantize_int8`]). The
    /// activations stay `f32`.
    Int8 {
        /// `out × in`, row-major.
        q: Vec<i8>,
        /// `out`: each row's scale.
        scale: Vec<f32>,
        /// `out`.
        b: Vec<f32>,
        /// Input width.
        input: usize,
    },
}

impl Linear {
    /// The output width.
    pub fn output(&self) -> usize {
        match self {
            Linear::F32 { b, .. } | Linear::Int8 { b, .. } => b.len(),
        }
    }

    /// The input width.
    pub fn input(&self) -> usize {
        match self {
            Linear::F32 { input, .. } | Linear::Int8 { input, .. } => *input,
        }
    }

    /// The weights in bytes, as stored (4 a weight in fp32; 1 a weight plus 4 a row in int8),
    /// biases included.
    pub fn bytes(&self) -> usize {
        match self {
            Linear::F32 { w, b, .. } => 4 * (w.len() + b.len()),
            Linear::Int8 { q, scale, b, .. } => q.len() + 4 * (scale.len() + b.len()),
        }
    }

    /// This layer with int8 weights (per output row, symmetric, round to nearest); an int8
    /// layer is returned as it is. A row of zeros gets scale 0.
    pub fn quantize_int8(&self) -> Linear {
        let Linear::F32 { w, b, input } = self else {
            return self.clone();
        };
        let (q, scale) = quantize_rows(w, *input);
        Linear::Int8 {
            q,
            scale,
            b: b.clone(),
            input: *input,
        }
    }

    /// `x` (`n × input`) through the layer, into `out` (`n × output`, overwritten).
    pub fn apply(&self, x: &[f32], out: &mut Vec<f32>) {
        let (input, output) = (self.input(), self.output());
        let n = x.len() / input;
        out.clear();
        out.resize(n * output, 0.0);
        #[cfg(all(feature = "simd128", target_arch = "wasm32"))]
        {
            match self {
                Linear::F32 { w, b, .. } => simd::linear_f32(x, w, b, input, out),
                Linear::Int8 { q, scale, b, .. } => simd::linear_i8(x, q, scale, b, input, out),
            }
            return;
        }
        #[allow(unreachable_code)]
        match self {
            Linear::F32 { w, b, .. } => {
                for (xr, yr) in x.chunks_exact(input).zip(out.chunks_exact_mut(output)) {
                    for ((y, wr), bias) in yr.iter_mut().zip(w.chunks_exact(input)).zip(b) {
                        *y = dot(xr, wr) + bias;
                    }
                }
            }
            Linear::Int8 { q, scale, b, .. } => {
                for (xr, yr) in x.chunks_exact(input).zip(out.chunks_exact_mut(output)) {
                    for (((y, qr), s), bias) in
                        yr.iter_mut().zip(q.chunks_exact(input)).zip(scale).zip(b)
                    {
                        *y = dot_i8(xr, qr) * s + bias;
                    }
                }
            }
        }
    }
}

/// One row in int8, symmetric, round to nearest: the values `round(v / scale)` in −127…127 and
/// `scale = max|v| / 127` (0 for a row of zeros, whose values are then all 0). The one rule of
/// every int8 weight here: the linear layers, BERT's word table, a static model's table.
pub fn quantize_row(row: &[f32]) -> (Vec<i8>, f32) {
    let max = row.iter().fold(0f32, |m, v| m.max(v.abs()));
    let scale = max / 127.0;
    let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
    let q = row
        .iter()
        .map(|v| (v * inv).round().clamp(-127.0, 127.0) as i8)
        .collect();
    (q, scale)
}

/// Every `width`-wide row of `values` (row-major) through [`quantize_row`]: the int8 values,
/// row after row, and one scale a row.
pub fn quantize_rows(values: &[f32], width: usize) -> (Vec<i8>, Vec<f32>) {
    let mut q = Vec::with_capacity(values.len());
    let mut scales = Vec::with_capacity(values.len() / width.max(1));
    for row in values.chunks_exact(width) {
        let (r, s) = quantize_row(row);
        q.extend(r);
        scales.push(s);
    }
    (q, scales)
}

/// The `f32` values of int8 rows: `q × scale` of their row, row after row (what
/// [`quantize_rows`] stands for).
pub fn dequantize_rows(q: &[i8], scales: &[f32], width: usize) -> Vec<f32> {
    q.chunks_exact(width)
        .zip(scales)
        .flat_map(|(row, s)| row.iter().map(move |&v| f32::from(v) * s))
        .collect()
}

/// The dot product of two equal-length slices, in eight lanes (which the compiler keeps in
/// vector registers), then summed pairwise.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(all(feature = "simd128", target_arch = "wasm32"))]
    return simd::dot(a, b);
    #[allow(unreachable_code)]
    dot_scalar(a, b)
}

/// `out += p · v`, element by element (`out` and `v` of equal length): the attention's
/// weighted sum of the value rows.
pub fn axpy(out: &mut [f32], p: f32, v: &[f32]) {
    #[cfg(all(feature = "simd128", target_arch = "wasm32"))]
    return simd::axpy(out, p, v);
    #[allow(unreachable_code)]
    for (o, x) in out.iter_mut().zip(v) {
        *o += p * x;
    }
}

/// [`dot`] without SIMD.
fn dot_scalar(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ac.zip(bc) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// [`dot`] of `f32` values with int8 weights.
fn dot_i8(a: &[f32], q: &[i8]) -> f32 {
    let mut acc = [0f32; 8];
    let (ac, qc) = (a.chunks_exact(8), q.chunks_exact(8));
    let tail: f32 = ac
        .remainder()
        .iter()
        .zip(qc.remainder())
        .map(|(x, y)| x * f32::from(*y))
        .sum();
    for (x, y) in ac.zip(qc) {
        for i in 0..8 {
            acc[i] += x[i] * f32::from(y[i]);
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// The wasm SIMD forms of [`dot`], [`dot_i8`], [`axpy`] and [`Linear::apply`]: the same
/// operations in the same order as the scalar ones (lanes 0–3 and 4–7 of the eight
/// accumulators in two vectors; then `((a0+a4)+(a1+a5)) + ((a2+a6)+(a3+a7))` and the tail), so
/// the results are equal bit for bit.
#[cfg(all(feature = "simd128", target_arch = "wasm32"))]
mod simd {
    use core::arch::wasm32::*;

    /// The eight accumulators' sum, as the scalar code adds them, plus `tail`.
    #[inline]
    #[target_feature(enable = "simd128")]
    fn reduce(lo: v128, hi: v128, tail: f32) -> f32 {
        let s = f32x4_add(lo, hi);
        ((f32x4_extract_lane::<0>(s) + f32x4_extract_lane::<1>(s))
            + (f32x4_extract_lane::<2>(s) + f32x4_extract_lane::<3>(s)))
            + tail
    }

    /// Eight `f32` from `p`.
    #[inline]
    #[target_feature(enable = "simd128")]
    fn load8(p: &[f32]) -> (v128, v128) {
        debug_assert!(p.len() >= 8);
        // SAFETY: `p` holds at least 8 values (every caller passes an 8-value chunk); wasm
        // loads need no alignment.
        unsafe {
            let p = p.as_ptr();
            (v128_load(p.cast()), v128_load(p.add(4).cast()))
        }
    }

    /// Eight `i8` from `q`, as exact `f32`.
    #[inline]
    #[target_feature(enable = "simd128")]
    fn load8_i8(q: &[i8]) -> (v128, v128) {
        debug_assert!(q.len() >= 8);
        // SAFETY: `q` holds at least 8 values (an 8-value chunk); the load reads 8 bytes.
        let wide = unsafe { i16x8_load_extend_i8x8(q.as_ptr()) };
        (
            f32x4_convert_i32x4(i32x4_extend_low_i16x8(wide)),
            f32x4_convert_i32x4(i32x4_extend_high_i16x8(wide)),
        )
    }

    #[target_feature(enable = "simd128")]
    pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
        let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
        let tail: f32 = ac
            .remainder()
            .iter()
            .zip(bc.remainder())
            .map(|(x, y)| x * y)
            .sum();
        let (mut lo, mut hi) = (f32x4_splat(0.0), f32x4_splat(0.0));
        for (x, y) in ac.zip(bc) {
            let ((xl, xh), (yl, yh)) = (load8(x), load8(y));
            lo = f32x4_add(lo, f32x4_mul(xl, yl));
            hi = f32x4_add(hi, f32x4_mul(xh, yh));
        }
        reduce(lo, hi, tail)
    }

    #[target_feature(enable = "simd128")]
    pub(super) fn axpy(out: &mut [f32], p: f32, v: &[f32]) {
        let n = out.len().min(v.len());
        let (out, v) = (&mut out[..n], &v[..n]);
        let pv = f32x4_splat(p);
        let mut oc = out.chunks_exact_mut(4);
        let mut vc = v.chunks_exact(4);
        for (o, x) in (&mut oc).zip(&mut vc) {
            // SAFETY: both chunks hold 4 values.
            unsafe {
                let sum = f32x4_add(
                    v128_load(o.as_ptr().cast()),
                    f32x4_mul(pv, v128_load(x.as_ptr().cast())),
                );
                v128_store(o.as_mut_ptr().cast(), sum);
            }
        }
        for (o, x) in oc.into_remainder().iter_mut().zip(vc.remainder()) {
            *o += p * x;
        }
    }

    /// `T` rows of `x` (each `input` wide) against one weight row: `T` dot products, the
    /// weights read once. `W` gives eight weights at a time as `f32` vectors, and the tail's.
    #[inline]
    #[target_feature(enable = "simd128")]
    fn rows<const T: usize>(
        xs: [&[f32]; T],
        chunks: usize,
        weights: impl Fn(usize) -> (v128, v128),
        tail: impl Fn(&[f32]) -> f32,
    ) -> [f32; T] {
        let mut lo = [f32x4_splat(0.0); T];
        let mut hi = [f32x4_splat(0.0); T];
        for c in 0..chunks {
            let (wl, wh) = weights(c);
            for t in 0..T {
                let (xl, xh) = load8(&xs[t][c * 8..]);
                lo[t] = f32x4_add(lo[t], f32x4_mul(xl, wl));
                hi[t] = f32x4_add(hi[t], f32x4_mul(xh, wh));
            }
        }
        let mut out = [0f32; T];
        for t in 0..T {
            out[t] = reduce(lo[t], hi[t], tail(&xs[t][chunks * 8..]));
        }
        out
    }

    /// Runs `row` (a block of 4 input rows, or 1) over `x` in blocks of four rows and then the
    /// rest one by one, writing each block's outputs (`output` per row) into `out`.
    #[inline]
    #[target_feature(enable = "simd128")]
    fn blocks(
        x: &[f32],
        input: usize,
        out: &mut [f32],
        output: usize,
        four: impl Fn([&[f32]; 4], usize) -> [f32; 4],
        one: impl Fn([&[f32]; 1], usize) -> [f32; 1],
    ) {
        let n = x.len() / input;
        let mut r = 0;
        while r + 4 <= n {
            let xs = [0, 1, 2, 3].map(|i| &x[(r + i) * input..(r + i + 1) * input]);
            for o in 0..output {
                let y = four(xs, o);
                for (i, v) in y.into_iter().enumerate() {
                    out[(r + i) * output + o] = v;
                }
            }
            r += 4;
        }
        while r < n {
            let xs = [&x[r * input..(r + 1) * input]];
            for o in 0..output {
                out[r * output + o] = one(xs, o)[0];
            }
            r += 1;
        }
    }

    #[target_feature(enable = "simd128")]
    pub(super) fn linear_f32(x: &[f32], w: &[f32], b: &[f32], input: usize, out: &mut [f32]) {
        let chunks = input / 8;
        let row = |o: usize| &w[o * input..(o + 1) * input];
        let tail = |o: usize| {
            move |xt: &[f32]| -> f32 {
                xt.iter()
                    .zip(&row(o)[chunks * 8..])
                    .map(|(x, y)| x * y)
                    .sum()
            }
        };
        let weights = |o: usize| move |c: usize| load8(&row(o)[c * 8..]);
        blocks(
            x,
            input,
            out,
            b.len(),
            |xs, o| rows(xs, chunks, weights(o), tail(o)).map(|v| v + b[o]),
            |xs, o| rows(xs, chunks, weights(o), tail(o)).map(|v| v + b[o]),
        );
    }

    #[target_feature(enable = "simd128")]
    pub(super) fn linear_i8(
        x: &[f32],
        q: &[i8],
        scale: &[f32],
        b: &[f32],
        input: usize,
        out: &mut [f32],
    ) {
        let chunks = input / 8;
        let row = |o: usize| &q[o * input..(o + 1) * input];
        let tail = |o: usize| {
            move |xt: &[f32]| -> f32 {
                xt.iter()
                    .zip(&row(o)[chunks * 8..])
                    .map(|(x, y)| x * f32::from(*y))
                    .sum()
            }
        };
        let weights = |o: usize| move |c: usize| load8_i8(&row(o)[c * 8..]);
        blocks(
            x,
            input,
            out,
            b.len(),
            |xs, o| rows(xs, chunks, weights(o), tail(o)).map(|v| v * scale[o] + b[o]),
            |xs, o| rows(xs, chunks, weights(o), tail(o)).map(|v| v * scale[o] + b[o]),
        );
    }
}

/// Layer normalisation of each row of `x` in place (PyTorch's `nn.LayerNorm`: the population
/// variance, `eps` inside the square root), then `· gamma + beta`.
#[cfg_attr(
    all(feature = "simd128", target_arch = "wasm32"),
    target_feature(enable = "simd128")
)]
pub fn layer_norm(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let width = gamma.len();
    for row in x.chunks_exact_mut(width) {
        let mean = row.iter().sum::<f32>() / width as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / width as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

/// GELU as BERT's `"gelu"` activation defines it, with the error function (not the tanh
/// approximation): `x · ½ (1 + erf(x / √2))`, with [`erf`] in `f32`.
#[cfg_attr(
    all(feature = "simd128", target_arch = "wasm32"),
    target_feature(enable = "simd128")
)]
pub fn gelu(x: &mut [f32]) {
    for v in x {
        *v = 0.5 * *v * (1.0 + erf(*v / std::f32::consts::SQRT_2));
    }
}

/// The error function in `f32`, without `exp`: `x · P(x²) / Q(x²)` on `x` clamped to −4…4
/// (erf(±4) is ±1 in `f32`), the rational fit Eigen's and XLA's `erf` use for `f32` (degree 13
/// over 8); absolute error below 5 × 10⁻⁷ (4.2 × 10⁻⁷ against Python's `math.erf` on
/// −6…6 in steps of 6 × 10⁻⁶). Only `+`, `×`, `÷` and the clamp, so every platform gives
/// the same bits (no `exp` from a platform's library), and the loop over a row vectorizes.
#[inline]
pub fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_4e-10_f32;
    for c in [
        2.770_681_5e-8,
        -2.101_024e-6,
        -5.692_506_2e-5,
        -7.349_906_4e-4,
        -2.954_6e-3,
        -1.609_603_3e-2,
    ] {
        p = p * x2 + c;
    }
    let mut q = -1.456_607_15e-5_f32;
    for c in [
        -2.133_740_5e-4,
        -1.682_827e-3,
        -7.373_329_3e-3,
        -1.426_473_9e-2,
    ] {
        q = q * x2 + c;
    }
    x * p / q
}

/// The softmax of `row` in place, shifted by its maximum so that no `exp` overflows.
#[cfg_attr(
    all(feature = "simd128", target_arch = "wasm32"),
    target_feature(enable = "simd128")
)]
pub fn softmax(row: &mut [f32]) {
    let max = row.iter().fold(f32::NEG_INFINITY, |m, v| m.max(*v));
    let mut sum = 0.0;
    for v in row.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in row.iter_mut() {
        *v /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // erf(0.5), erf(1), erf(2), erf(-1): Abramowitz & Stegun table 7.1; erf(3.5): Python.
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (-1.0, -0.842_700_792_9),
            (3.5, 0.999_999_256_9),
            (-9.0, -1.0),
        ] {
            let e = f64::from(erf(x as f32));
            assert!((e - want).abs() < 5e-7, "erf({x}) = {e}");
        }
        let mut g = [0.0, 1.0, -1.0, 10.0];
        gelu(&mut g);
        // x Φ(x): Φ(1) = 0.841 344 746 1.
        assert_eq!(g[0], 0.0);
        let (p, n) = (f64::from(g[1]), f64::from(g[2]));
        assert!((p - 0.841_344_746).abs() < 3e-7 && (n + 0.158_655_254).abs() < 3e-7);
        assert_eq!(g[3], 10.0);
    }

    #[test]
    fn linear_layer_and_its_int8_copy() {
        // 2 inputs → 3 outputs; x = [1, 2].
        let layer = Linear::F32 {
            w: vec![1.0, 0.0, 0.5, -1.0, 0.0, 0.0],
            b: vec![0.0, 1.0, -1.0],
            input: 2,
        };
        let mut y = Vec::new();
        layer.apply(&[1.0, 2.0], &mut y);
        assert_eq!(y, [1.0, 1.0 + 0.5 - 2.0, -1.0]);
        let q = layer.quantize_int8();
        let Linear::Int8 {
            q: ref w,
            ref scale,
            ..
        } = q
        else {
            panic!("not int8")
        };
        assert_eq!(w, &[127, 0, 64, -127, 0, 0]);
        assert_eq!(scale[2], 0.0);
        q.apply(&[1.0, 2.0], &mut y);
        assert!((y[1] - (-0.5 + (64.0 / 127.0 - 0.5))).abs() < 1e-6, "{y:?}");
        assert_eq!((layer.bytes(), q.bytes()), (36, 6 + 12 + 12));
    }

    #[test]
    fn layer_norm_and_softmax() {
        let mut x = [1.0, 2.0, 3.0, 4.0];
        layer_norm(&mut x, &[1.0; 4], &[0.0; 4], 0.0);
        let s = 1.0 / 1.25f32.sqrt();
        assert_eq!(x, [-1.5 * s, -0.5 * s, 0.5 * s, 1.5 * s]);
        let mut r = [0.0, f32::ln(3.0)];
        softmax(&mut r);
        assert!((r[0] - 0.25).abs() < 1e-7 && (r[1] - 0.75).abs() < 1e-7);
    }

    #[test]
    fn dot_covers_the_tail() {
        let a: Vec<f32> = (1..=11).map(|v| v as f32).collect();
        assert_eq!(dot(&a, &[1.0; 11]), 66.0);
    }
}
