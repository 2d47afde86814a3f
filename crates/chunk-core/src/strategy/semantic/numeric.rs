//! The numerics the semantic libraries take from NumPy and chonkie-core, written so that the
//! same inputs give the same `f64` results bit for bit where the order of operations is known
//! (NumPy's pairwise sum, `percentile`'s linear interpolation, `gradient`; chonkie-core's
//! Savitzky–Golay filter and its own percentile). Cosines are sums over 256–384 products: they
//! agree with NumPy's BLAS dot to the last bits only, which moves a cut only when a distance
//! lies within those bits of its threshold.

/// `numpy.add.reduce` on a contiguous `float64` array (`pairwise_sum_DOUBLE`, NumPy 2.4): a
/// plain loop under 8 values, 8 running sums up to 128, halves (a multiple of 8) above.
/// `np.mean` is this divided by the length.
pub(crate) fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(-0.0, |s, &x| s + x)
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// `np.mean(a)`; NaN for no value.
pub(crate) fn mean(a: &[f64]) -> f64 {
    pairwise_sum(a) / a.len() as f64
}

/// `np.std(a)` (population, `ddof=0`): the square root of the mean of squared deviations.
pub(crate) fn std(a: &[f64]) -> f64 {
    let m = mean(a);
    let sq: Vec<f64> = a
        .iter()
        .map(|&x| {
            let d = x - m;
            d * d
        })
        .collect();
    (pairwise_sum(&sq) / a.len() as f64).sqrt()
}

/// `np.percentile(a, q)` with the default `method="linear"`: `(n − 1)·q/100` in the sorted
/// values, interpolated as NumPy's `_lerp` does (from the upper value when the weight is
/// ≥ 0.5); NaN when a value is NaN, as NumPy gives (a zero vector's cosine is NaN). `a` must
/// not be empty (NumPy raises; the callers never ask).
pub(crate) fn percentile(a: &[f64], q: f64) -> f64 {
    if a.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let mut sorted = a.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let virtual_index = (n as f64 - 1.0) * (q / 100.0);
    if virtual_index >= (n - 1) as f64 {
        return sorted[n - 1];
    }
    if virtual_index < 0.0 {
        return sorted[0];
    }
    let previous = virtual_index.floor();
    let i = previous as usize;
    let (lo, hi) = (sorted[i], sorted[i + 1]);
    let t = virtual_index - previous;
    let diff = hi - lo;
    if t >= 0.5 {
        hi - diff * (1.0 - t)
    } else {
        lo + diff * t
    }
}

/// `np.gradient(a, range(len(a)))`: unit spacing, central differences inside, one-sided
/// first differences at both ends. `a` needs two values or more (NumPy raises otherwise).
pub(crate) fn gradient(a: &[f64]) -> Vec<f64> {
    let n = a.len();
    let mut out = vec![0.0; n];
    if n < 2 {
        return out;
    }
    out[0] = a[1] - a[0];
    out[n - 1] = a[n - 1] - a[n - 2];
    for i in 1..n - 1 {
        out[i] = (a[i + 1] - a[i - 1]) / 2.0;
    }
    out
}

/// The cosine of `u` and `v` in `f64` (`dot / (‖u‖·‖v‖)`); NaN when one is all zeros.
pub(crate) fn cosine(u: &[f32], v: &[f32]) -> f64 {
    let (mut dot, mut uu, mut vv) = (0.0f64, 0.0f64, 0.0f64);
    for (&a, &b) in u.iter().zip(v) {
        let (a, b) = (f64::from(a), f64::from(b));
        dot += a * b;
        uu += a * a;
        vv += b * b;
    }
    dot / (uu.sqrt() * vv.sqrt())
}

/// 1 − the cosine of `u` and `v`, the cosine taken as 0 where it is not finite (a zero
/// vector): langchain_community's `cosine_similarity` writes 0 for NaN and ±inf.
pub(crate) fn distance_nan_as_one(u: &[f32], v: &[f32]) -> f64 {
    let sim = cosine(u, v);
    1.0 - if sim.is_finite() { sim } else { 0.0 }
}

/// chonkie-core 0.10.2 `savgol.rs`: the Savitzky–Golay coefficients of derivative `deriv` for
/// an odd `window` and `poly_order < window` (least squares through the normal equations,
/// Gauss–Jordan inverse with partial pivoting), `None` where its inverse finds a pivot under
/// 1e-10.
fn savgol_coeffs(window: usize, poly_order: usize, deriv: usize) -> Option<Vec<f64>> {
    let half = (window - 1) / 2;
    let cols = poly_order + 1;
    let mut a = vec![0.0; window * cols];
    for i in 0..window {
        let x = i as f64 - half as f64;
        for j in 0..cols {
            a[i * cols + j] = x.powi(j as i32);
        }
    }
    // Aᵀ·A, summed in the order of chonkie-core's matrix_multiply.
    let mut ata = vec![0.0; cols * cols];
    for i in 0..cols {
        for j in 0..cols {
            let mut sum = 0.0;
            for k in 0..window {
                sum += a[k * cols + i] * a[k * cols + j];
            }
            ata[i * cols + j] = sum;
        }
    }
    let inv = invert(&ata, cols)?;
    let factorial: f64 = (1..=deriv).map(|i| i as f64).product::<f64>().max(1.0);
    let mut coeffs = vec![0.0; window];
    if deriv < cols {
        for (i, c) in coeffs.iter_mut().enumerate() {
            let mut sum = 0.0;
            for k in 0..cols {
                sum += inv[deriv * cols + k] * a[i * cols + k];
            }
            *c = factorial * sum;
        }
    }
    Some(coeffs)
}

/// chonkie-core's `matrix_inverse` (Gauss–Jordan, partial pivoting, row by row).
fn invert(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    let mut work = a.to_vec();
    for i in 0..n {
        let mut max_row = i;
        let mut max_val = work[i * n + i].abs();
        for k in i + 1..n {
            let v = work[k * n + i].abs();
            if v > max_val {
                max_val = v;
                max_row = k;
            }
        }
        if max_row != i {
            for j in 0..n {
                work.swap(i * n + j, max_row * n + j);
                inv.swap(i * n + j, max_row * n + j);
            }
        }
        let pivot = work[i * n + i];
        if pivot.abs() < 1e-10 {
            return None;
        }
        for j in 0..n {
            work[i * n + j] /= pivot;
            inv[i * n + j] /= pivot;
        }
        for k in 0..n {
            if k != i {
                let factor = work[k * n + i];
                for j in 0..n {
                    work[k * n + j] -= factor * work[i * n + j];
                    inv[k * n + j] -= factor * inv[i * n + j];
                }
            }
        }
    }
    Some(inv)
}

/// chonkie-core's `apply_convolution`: `data` convolved with `kernel`, mirrored at both ends
/// (index −i reads i, index n−1+i reads n−1−i), clamped when that is still outside.
fn convolve(data: &[f64], kernel: &[f64]) -> Vec<f64> {
    let n = data.len() as isize;
    let half = (kernel.len() / 2) as isize;
    (0..n)
        .map(|i| {
            let mut sum = 0.0;
            for (j, &k) in kernel.iter().enumerate() {
                let mut idx = i - half + j as isize;
                if idx < 0 {
                    idx = -idx;
                } else if idx >= n {
                    idx = 2 * n - idx - 2;
                }
                sum += data[idx.clamp(0, n - 1) as usize] * k;
            }
            sum
        })
        .collect()
}

/// chonkie-core's `find_local_minima_interpolated`: the indices whose Savitzky–Golay first
/// derivative is under `tolerance` in magnitude and whose second derivative is positive,
/// with their values. `None` for an even `window` or `window <= poly_order` (the library
/// raises `ValueError`).
pub(crate) fn local_minima(
    data: &[f64],
    window: usize,
    poly_order: usize,
    tolerance: f64,
) -> Option<Vec<(usize, f64)>> {
    if data.is_empty() {
        return Some(Vec::new());
    }
    if window.is_multiple_of(2) || window <= poly_order {
        return None;
    }
    let first = convolve(data, &savgol_coeffs(window, poly_order, 1)?);
    let second = convolve(data, &savgol_coeffs(window, poly_order, 2)?);
    Some(
        (0..data.len())
            .filter(|&i| first[i].abs() < tolerance && second[i] > 0.0)
            .map(|i| (i, data[i]))
            .collect(),
    )
}

/// chonkie-core's own percentile of `sorted` values at `p` (0–1): `lo·(1−w) + hi·w` at
/// `p·(n−1)`. `sorted` must not be empty.
pub(crate) fn chonkie_percentile(sorted: &[f64], p: f64) -> f64 {
    let idx = p * (sorted.len() - 1) as f64;
    let lower = idx.floor() as usize;
    let upper = (lower + 1).min(sorted.len() - 1);
    let weight = idx - lower as f64;
    sorted[lower] * (1.0 - weight) + sorted[upper] * weight
}

/// chonkie-core's `filter_split_indices`: the minima at or under the `threshold` quantile
/// (0–1, chonkie-core's own linear percentile: `lo·(1−w) + hi·w`) of their values, each at
/// least `min_distance` after the last kept.
pub(crate) fn filter_minima(
    minima: &[(usize, f64)],
    threshold: f64,
    min_distance: usize,
) -> Vec<usize> {
    if minima.is_empty() {
        return Vec::new();
    }
    let mut sorted: Vec<f64> = minima.iter().map(|&(_, v)| v).collect();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let cut = chonkie_percentile(&sorted, threshold);
    let mut kept = Vec::new();
    let mut last: Option<usize> = None;
    for &(i, v) in minima {
        if v <= cut && last.is_none_or(|l| i >= l + min_distance) {
            kept.push(i);
            last = Some(i);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_percentile_interpolates_from_the_nearer_side() {
        // np.percentile([1, 2, 3, 4], 95) is 3.8499999999999996 in NumPy 2.4 (4 − 1·(1 − t)
        // with t = 3·0.95 − 2), not 3.85.
        assert_eq!(percentile(&[4.0, 1.0, 3.0, 2.0], 95.0), 3.8499999999999996);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 25.0), 1.75);
        assert_eq!(percentile(&[5.0], 95.0), 5.0);
        assert_eq!(percentile(&[1.0, 3.0], 100.0), 3.0);
    }

    #[test]
    fn pairwise_sum_differs_from_a_plain_loop_as_numpy_does() {
        // 1e16 + 1 + 1 + … : a plain loop loses every 1, pairwise blocks keep some.
        let mut a = vec![1.0; 200];
        a[0] = 1e16;
        let plain: f64 = a.iter().sum();
        assert_eq!(plain, 1e16);
        assert_ne!(pairwise_sum(&a), plain);
        assert_eq!(mean(&[1.0, 2.0, 3.0, 4.0]), 2.5);
        assert_eq!(std(&[1.0, 1.0, 3.0, 3.0]), 1.0);
    }

    #[test]
    fn a_nan_makes_the_percentile_nan_as_in_numpy() {
        // np.percentile([0.1, nan, 0.3], 95) is nan: LlamaIndex then cuts nowhere.
        assert!(percentile(&[0.1, f64::NAN, 0.3], 95.0).is_nan());
        let zero = [0.0f32; 4];
        assert!(cosine(&zero, &[1.0, 0.0, 0.0, 0.0]).is_nan());
    }

    #[test]
    fn gradient_is_central_inside_and_one_sided_at_the_ends() {
        assert_eq!(gradient(&[1.0, 2.0, 4.0, 7.0]), vec![1.0, 1.5, 2.5, 3.0]);
    }

    #[test]
    fn savgol_first_derivative_of_a_line_is_its_slope() {
        let line: Vec<f64> = (0..9).map(|i| 2.0 * i as f64 + 1.0).collect();
        let d = convolve(&line, &savgol_coeffs(5, 3, 1).unwrap());
        // Inside, away from the mirrored ends, the slope; coefficients are (1, −8, 0, 8, −1)/12
        // reversed by the convolution's orientation (chonkie-core does not flip the kernel).
        for &x in &d[2..7] {
            assert!((x.abs() - 2.0).abs() < 1e-12, "{x}");
        }
        // A parabola's minimum is found at its vertex.
        let parabola: Vec<f64> = (0..11).map(|i| ((i as f64) - 5.0).powi(2)).collect();
        let minima = local_minima(&parabola, 5, 3, 0.2).unwrap();
        assert_eq!(minima, vec![(5, 0.0)]);
        assert_eq!(local_minima(&parabola, 4, 3, 0.2), None);
    }

    #[test]
    fn filtered_minima_keep_the_low_ones_apart() {
        let m = [(0, 0.1), (5, 0.3), (8, 0.2), (15, 0.5), (20, 0.4)];
        // chonkie-core's doc example, threshold 0.5: the median of the values is 0.3.
        assert_eq!(filter_minima(&m, 0.5, 2), vec![0, 5, 8]);
        assert_eq!(filter_minima(&m, 0.5, 6), vec![0, 8]);
    }
}
