//! The model's one error type. Every message names the field or value at fault.

use thiserror::Error;

/// What can go wrong when the model is given bad input.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ModelError {
    /// A format name that is not in the catalogue.
    #[error("unknown format `{0}` (try `rooflinr formats` for the list)")]
    UnknownFormat(String),
    /// A hardware key that is not in the registry.
    #[error("unknown hardware `{0}` (try `rooflinr hardware` for the list)")]
    UnknownHardware(String),
    /// A model preset that does not exist.
    #[error("unknown model preset `{0}`")]
    UnknownPreset(String),
    /// A config.json whose `model_type` is not a supported family.
    #[error("unsupported model family `{family}` (supported: {})", supported.join(", "))]
    UnknownFamily {
        /// The `model_type` read (at most 64 characters).
        family: String,
        /// The families that are read.
        supported: &'static [&'static str],
    },
    /// A required field is absent.
    #[error("missing field `{0}`")]
    MissingField(String),
    /// A field is present but its value is unusable.
    #[error("field `{field}`: {problem}")]
    InvalidField {
        /// The field's name (dotted for nested fields).
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Text that does not parse as JSON or TOML at all.
    #[error("cannot parse {what}: {message}")]
    Syntax {
        /// What was being parsed.
        what: &'static str,
        /// The parser's message, with line and column.
        message: String,
    },
}

impl ModelError {
    /// Shorthand for [`ModelError::InvalidField`].
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        ModelError::InvalidField {
            field: field.into(),
            problem: problem.into(),
        }
    }
}
