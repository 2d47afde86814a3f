//! A semantic strategy's similarity curve ([`super::semantic`]), as data the page draws: in
//! the core without the strategies, since the comparison's replies carry it.

/// What a curve's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CurveKind {
    /// Cosine distance (1 − similarity) between neighbouring windows: a cut where it is
    /// above the threshold (LangChain, LlamaIndex, the product's own).
    Distance,
    /// LangChain's `gradient` breakpoints: the gradient of the distances, cut above.
    DistanceGradient,
    /// Cosine similarity of a window and the next sentence: a cut at a smoothed local minimum
    /// at or under the threshold (chonkie).
    Similarity,
}

/// The similarity curve along a text: one point per gap between two sentences that the
/// strategy measured, the threshold it cut at, and where it cut.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Curve {
    /// What the values are.
    pub kind: CurveKind,
    /// One point per measured gap, in document order.
    pub points: Vec<CurvePoint>,
    /// The threshold the values were compared with (`None` when too few points gave none).
    pub threshold: Option<f64>,
}

/// One gap between sentences on a [`Curve`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    /// Byte offset of the gap in the document (where the next sentence starts).
    pub byte: usize,
    /// The value at the gap ([`Curve::kind`]).
    pub value: f64,
    /// True when the strategy cut here for a topic shift.
    pub cut: bool,
}
