//! The arithmetic of the encoder: linear layers (fp32 and int8 weights), layer normalisation,
//! GELU and the row softmax. Row-major `f32` slices throughout; `n` rows of `width` values.

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
        let mut q = Vec::with_capacity(w.len());
        let mut scale = Vec::with_capacity(b.len());
        for row in w.chunks_exact(*input) {
            let max = row.iter().fold(0f32, |m, v| m.max(v.abs()));
            let s = max / 127.0;
            scale.push(s);
            let inv = if s > 0.0 { 1.0 / s } else { 0.0 };
            q.extend(
                row.iter()
                    .map(|v| (v * inv).round().clamp(-127.0, 127.0) as i8),
            );
        }
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

/// The dot product of two equal-length slices, in eight lanes (which the compiler keeps in
/// vector registers), then summed pairwise.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
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

/// Layer normalisation of each row of `x` in place (PyTorch's `nn.LayerNorm`: the population
/// variance, `eps` inside the square root), then `· gamma + beta`.
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
/// approximation): `x · ½ (1 + erf(x / √2))`.
pub fn gelu(x: &mut [f32]) {
    for v in x {
        let f = f64::from(*v);
        *v = (0.5 * f * (1.0 + erf(f / std::f64::consts::SQRT_2))) as f32;
    }
}

/// The error function, from the complementary error function's Chebyshev fit in Numerical
/// Recipes (3rd ed., §6.2, `erfc`), fractional error below 1.2 × 10⁻⁷ everywhere.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The softmax of `row` in place, shifted by its maximum so that no `exp` overflows.
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
        // erf(0.5), erf(1), erf(2), erf(-1): Abramowitz & Stegun table 7.1.
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (-1.0, -0.842_700_792_9),
        ] {
            assert!((erf(x) - want).abs() < 2e-7, "erf({x}) = {}", erf(x));
        }
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
