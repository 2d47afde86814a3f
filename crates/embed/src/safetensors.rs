//! A reader of the safetensors format, the form in which the models' weights are published.
//!
//! The format (its specification: the `safetensors` crate's README, "Format"): 8 bytes, a
//! little-endian `u64` N; then N bytes of JSON, an object mapping each tensor's name to
//! `{"dtype", "shape", "data_offsets": [begin, end]}` (offsets in bytes, relative to the end of
//! the header) plus an optional `"__metadata__"` object of strings; then the tensors' bytes,
//! little-endian, row-major. Only what the models here use is read: `F32` and `I8` tensors,
//! the string values of `__metadata__` (and the names and shapes of the others); [`write()`]
//! writes such a file.

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
    /// The file's bytes are not the ones its writer checksummed (a damaged copy).
    #[error("the weights file is damaged: {0}")]
    Damaged(String),
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
    metadata: BTreeMap<String, String>,
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
        let mut metadata = BTreeMap::new();
        for (name, value) in raw {
            if name == "__metadata__" {
                // The format's metadata is strings; other values are not read.
                if let serde_json::Value::Object(entries) = value {
                    for (key, value) in entries {
                        if let serde_json::Value::String(text) = value {
                            metadata.insert(key, text);
                        }
                    }
                }
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
        Ok(SafeTensors {
            tensors,
            metadata,
            data,
        })
    }

    /// The string entries of the header's `__metadata__` (empty when it has none).
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// The tensors' bytes: everything after the header, in which each tensor's
    /// [`TensorInfo::data_offsets`] lie.
    pub fn data(&self) -> &[u8] {
        self.data
    }

    /// The names of the tensors, in byte order of their names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    /// The header entry of `name`, if the file has it.
    pub fn info(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.get(name)
    }

    /// The bytes of tensor `name`, which must be of `dtype` (`size` bytes an element) and have
    /// exactly `shape`.
    fn raw(
        &self,
        name: &str,
        dtype: &str,
        size: usize,
        shape: &[usize],
    ) -> Result<&[u8], LoadError> {
        let info = self
            .tensors
            .get(name)
            .ok_or_else(|| LoadError::Missing(name.to_owned()))?;
        let bytes = shape.iter().try_fold(size, |n, &d| n.checked_mul(d));
        let [begin, end] = info.data_offsets;
        if info.dtype != dtype || info.shape != shape || bytes != Some(end - begin) {
            return Err(LoadError::Mismatch {
                name: name.to_owned(),
                found: format!("{} {:?} ({} bytes)", info.dtype, info.shape, end - begin),
                expected: format!("{dtype} {shape:?}"),
            });
        }
        Ok(&self.data[begin..end])
    }

    /// The `F32` tensor `name`, which must have exactly `shape`, as a vector (row-major).
    ///
    /// Errors: [`LoadError::Missing`]; [`LoadError::Mismatch`] for another dtype, another shape
    /// or a byte length that is not the shape's.
    pub fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
        Ok(self
            .raw(name, "F32", 4, shape)?
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    /// The `I8` tensor `name` (signed bytes), which must have exactly `shape`, as a vector
    /// (row-major).
    ///
    /// Errors: as [`SafeTensors::f32`].
    pub fn i8(&self, name: &str, shape: &[usize]) -> Result<Vec<i8>, LoadError> {
        Ok(self
            .raw(name, "I8", 1, shape)?
            .iter()
            .map(|&b| b as i8)
            .collect())
    }
}

/// One tensor to [`write()`]: its values, row-major.
#[derive(Debug, Clone, Copy)]
pub enum Tensor<'a> {
    /// Written as `F32`, 4 bytes little-endian each.
    F32(&'a [f32]),
    /// Written as `I8`, one byte each.
    I8(&'a [i8]),
}

impl Tensor<'_> {
    fn dtype(&self) -> &'static str {
        match self {
            Tensor::F32(_) => "F32",
            Tensor::I8(_) => "I8",
        }
    }

    fn len(&self) -> usize {
        match self {
            Tensor::F32(v) => v.len(),
            Tensor::I8(v) => v.len(),
        }
    }

    fn extend(&self, out: &mut Vec<u8>) {
        match self {
            Tensor::F32(v) => out.extend(v.iter().flat_map(|x| x.to_le_bytes())),
            Tensor::I8(v) => out.extend(v.iter().map(|&x| x as u8)),
        }
    }
}

/// A safetensors file holding `tensors` (name, shape, values; their data in this order) and
/// `metadata` (the header's `__metadata__`, omitted when empty), as [`SafeTensors::parse`]
/// reads it. The header is padded with spaces to a multiple of 8 bytes, as the format's own
/// writer does.
///
/// Panics when a tensor's values are not as many as its shape says, or two tensors share a
/// name (a caller's mistake, not the data's).
pub fn write(
    tensors: &[(String, Vec<usize>, Tensor)],
    metadata: &BTreeMap<String, String>,
) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    if !metadata.is_empty() {
        header.insert("__metadata__".into(), serde_json::json!(metadata));
    }
    let mut offset = 0;
    for (name, shape, tensor) in tensors {
        assert_eq!(
            shape.iter().product::<usize>(),
            tensor.len(),
            "tensor {name:?}: shape {shape:?}"
        );
        let size = tensor.len()
            * if matches!(tensor, Tensor::F32(_)) {
                4
            } else {
                1
            };
        let entry = serde_json::json!({
            "dtype": tensor.dtype(),
            "shape": shape,
            "data_offsets": [offset, offset + size],
        });
        assert!(
            header.insert(name.clone(), entry).is_none(),
            "tensor {name:?} twice"
        );
        offset += size;
    }
    let mut json = serde_json::Value::Object(header).to_string().into_bytes();
    while !json.len().is_multiple_of(8) {
        json.push(b' ');
    }
    let mut out = Vec::with_capacity(8 + json.len() + offset);
    out.extend_from_slice(&(json.len() as u64).to_le_bytes());
    out.extend_from_slice(&json);
    for (_, _, tensor) in tensors {
        tensor.extend(&mut out);
    }
    out
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

    #[test]
    fn writes_what_it_reads_back() {
        let metadata = BTreeMap::from([("config.json".to_owned(), "{\"a\": 1}".to_owned())]);
        let bytes = write(
            &[
                (
                    "w".into(),
                    vec![2, 3],
                    Tensor::I8(&[-128, -1, 0, 1, 2, 127]),
                ),
                ("s".into(), vec![2], Tensor::F32(&[0.5, -3.25])),
            ],
            &metadata,
        );
        let header = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        assert_eq!(header % 8, 0);
        // 6 bytes of I8, then 8 of F32.
        assert_eq!(bytes.len() as u64, 8 + header + 6 + 8);
        let st = SafeTensors::parse(&bytes).unwrap();
        assert_eq!(st.metadata(), &metadata);
        assert_eq!(st.i8("w", &[2, 3]).unwrap(), [-128, -1, 0, 1, 2, 127]);
        assert_eq!(st.f32("s", &[2]).unwrap(), [0.5, -3.25]);
        assert_eq!(st.info("s").unwrap().data_offsets, [6, 14]);
        assert!(matches!(
            st.f32("w", &[2, 3]),
            Err(LoadError::Mismatch { .. })
        ));
        assert!(matches!(
            st.i8("w", &[3, 2]),
            Err(LoadError::Mismatch { .. })
        ));
        // A shape whose byte count overflows is a mismatch, not a panic.
        assert!(matches!(
            st.i8("w", &[usize::MAX, 3]),
            Err(LoadError::Mismatch { .. })
        ));
    }
}
