//! A reader of the safetensors format, the form in which the models' weights are published.
//!
//! The format (its specification: the `safetensors` crate's README, "Format"): 8 bytes, a
//! little-endian `u64` N; then N bytes of JSON, an object mapping each tensor's name to
//! `{"dtype", "shape", "data_offsets": [begin, end]}` (offsets in bytes, relative to the end of
//! the header) plus an optional `"__metadata__"` object of strings; then the tensors' bytes,
//! little-endian, row-major. Only what the models here use is read: `F32` tensors (and the
//! names and shapes of the others).

use std::collections::BTreeMap;

use serde::Deserialize;

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file ends before its header or a tensor does.
    #[error("the weights file is truncated: {0}")]
    Truncated(String),
    /// The header is not the JSON the format describes.
    #[error("the weights file's header is not valid: {0}")]
    Header(String),
    /// A tensor the model needs is not in the file.
    #[error("the weights file has no tensor {0:?}")]
    Missing(String),
    /// A tensor has another type or shape than the model's configuration says.
    #[error("tensor {name:?} is {found}, expected {expected}")]
    Mismatch {
        /// The tensor's name.
        name: String,
        /// Its dtype and shape in the file.
        found: String,
        /// What the configuration needs.
        expected: String,
    },
    /// A configuration file could not be read.
    #[error("the model's configuration is not valid: {0}")]
    Config(String),
}

/// One tensor's entry in the header.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TensorInfo {
    /// The element type as the format names it (`F32`, `F16`, `I64`, …).
    pub dtype: String,
    /// The dimensions, outermost first.
    pub shape: Vec<usize>,
    /// The bytes `[begin, end)` of its data, from the end of the header.
    pub data_offsets: [usize; 2],
}

/// A parsed safetensors file, borrowing its bytes.
#[derive(Debug)]
pub struct SafeTensors<'a> {
    tensors: BTreeMap<String, TensorInfo>,
    data: &'a [u8],
}

/// The largest header read, in bytes (the format's own reference reader refuses more than
/// 100,000,000).
const MAX_HEADER: u64 = 100_000_000;

impl<'a> SafeTensors<'a> {
    /// Reads the header of `bytes` and checks that every tensor's data lies inside the file.
    ///
    /// Errors: [`LoadError::Truncated`] when the file is shorter than its header or a tensor's
    /// end; [`LoadError::Header`] when the header is not valid JSON of the format, or a
    /// tensor's offsets are reversed.
    pub fn parse(bytes: &'a [u8]) -> Result<SafeTensors<'a>, LoadError> {
        let len: [u8; 8] = bytes
            .get(..8)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| LoadError::Truncated(format!("{} bytes, no header", bytes.len())))?;
        let n = u64::from_le_bytes(len);
        if n > MAX_HEADER {
            return Err(LoadError::Header(format!("a header of {n} bytes")));
        }
        let n = n as usize;
        let header = bytes
            .get(8..8 + n)
            .ok_or_else(|| LoadError::Truncated(format!("the header needs {n} bytes")))?;
        let raw: BTreeMap<String, serde_json::Value> =
            serde_json::from_slice(header).map_err(|e| LoadError::Header(e.to_string()))?;
        let data = &bytes[8 + n..];
        let mut tensors = BTreeMap::new();
        for (name, value) in raw {
            if name == "__metadata__" {
                continue;
            }
            let info: TensorInfo = serde_json::from_value(value)
                .map_err(|e| LoadError::Header(format!("{name}: {e}")))?;
            let [begin, end] = info.data_offsets;
            if begin > end {
                return Err(LoadError::Header(format!(
                    "{name}: offsets {begin} > {end}"
                )));
            }
            if end > data.len() {
                return Err(LoadError::Truncated(format!(
                    "{name} ends at byte {end} of {} bytes of data",
                    data.len()
                )));
            }
            tensors.insert(name, info);
        }
        Ok(SafeTensors { tensors, data })
    }

    /// The names of the tensors, in byte order of their names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    /// The header entry of `name`, if the file has it.
    pub fn info(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.get(name)
    }

    /// The `F32` tensor `name`, which must have exactly `shape`, as a vector (row-major).
    ///
    /// Errors: [`LoadError::Missing`]; [`LoadError::Mismatch`] for another dtype, another shape
    /// or a byte length that is not the shape's.
    pub fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
        let info = self
            .tensors
            .get(name)
            .ok_or_else(|| LoadError::Missing(name.to_owned()))?;
        let elements: usize = shape.iter().product();
        let [begin, end] = info.data_offsets;
        if info.dtype != "F32" || info.shape != shape || end - begin != elements * 4 {
            return Err(LoadError::Mismatch {
                name: name.to_owned(),
                found: format!("{} {:?} ({} bytes)", info.dtype, info.shape, end - begin),
                expected: format!("F32 {shape:?}"),
            });
        }
        Ok(self.data[begin..end]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the format with the given header JSON and data.
    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn reads_an_f32_tensor_and_skips_the_metadata() {
        let data: Vec<u8> = [1.5f32, -2.0, 0.25, 8.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let bytes = file(
            r#"{"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}"#,
            &data,
        );
        let st = SafeTensors::parse(&bytes).unwrap();
        assert_eq!(st.names().collect::<Vec<_>>(), ["w"]);
        assert_eq!(st.f32("w", &[2, 2]).unwrap(), [1.5, -2.0, 0.25, 8.0]);
    }

    #[test]
    fn refuses_a_wrong_shape_a_missing_tensor_and_a_short_file() {
        let bytes = file(
            r#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#,
            &[0; 8],
        );
        let st = SafeTensors::parse(&bytes).unwrap();
        assert!(matches!(st.f32("w", &[3]), Err(LoadError::Mismatch { .. })));
        assert_eq!(st.f32("v", &[2]), Err(LoadError::Missing("v".into())));
        let short = file(
            r#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#,
            &[0; 7],
        );
        assert!(matches!(
            SafeTensors::parse(&short),
            Err(LoadError::Truncated(_))
        ));
        assert!(matches!(
            SafeTensors::parse(&[1, 2]),
            Err(LoadError::Truncated(_))
        ));
        assert!(matches!(
            SafeTensors::parse(&file("{not json", &[])),
            Err(LoadError::Header(_))
        ));
    }
}
