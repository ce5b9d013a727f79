//! Temporary stand-in (replaced by the full schema-to-span mapping).
use super::yaml::YamlDoc;
use crate::diagnostic::Diagnostic;

pub fn compile(schema: &serde_json::Value) -> Result<jsonschema::Validator, String> {
    jsonschema::draft202012::new(schema).map_err(|e| e.to_string())
}

pub fn check(validator: &jsonschema::Validator, doc: &YamlDoc) -> Vec<Diagnostic> {
    validator
        .iter_errors(&doc.value)
        .map(|e| doc.diag("schema::invalid", e.to_string(), e.instance_path().as_str()))
        .collect()
}
