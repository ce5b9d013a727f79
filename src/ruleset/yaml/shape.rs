//! The shape pass: a node type that keeps only a constant-size summary of each subtree (height, nodes
//! produced by aliases), so a document is measured against the limits before its real tree is built.
use super::*;

pub(super) static NEXT_SHAPE_ID: AtomicU64 = AtomicU64::new(0);

pub(super) fn next_shape_id() -> u64 {
    NEXT_SHAPE_ID.fetch_add(1, Ordering::Relaxed)
}

/// A constant-size summary of one subtree, as built by saphyr's loader in the shape pass.
///
/// A collection holds its children only until it is complete; then they are folded into the
/// summary and dropped, so clones (which saphyr makes for anchors and aliases) cost O(1).
#[derive(Debug)]
pub(super) struct Shape {
    /// Unique per instance, clones included, so that saphyr's loader never sees two equal keys:
    /// it would stop at the first, and duplicates are reported by the span pass anyway.
    pub(super) id: u64,
    /// Made by `Clone`; in the finished tree that only happens for alias expansions.
    pub(super) cloned: bool,
    /// Character index where a collection starts (scalars never receive one).
    pub(super) start: Option<usize>,
    /// Collections from here down to the deepest leaf; 0 for a scalar.
    pub(super) height: u32,
    /// Nodes in the expanded subtree, keys included.
    pub(super) size: u64,
    /// Nodes in the subtree produced by alias expansion.
    pub(super) alias_nodes: u64,
    /// Start of the innermost collection on the deepest path.
    pub(super) deepest: Option<usize>,
    /// Start of the first collection whose aliases went over the limit.
    pub(super) over_limit: Option<usize>,
    pub(super) kind: ShapeKind,
}

#[derive(Debug)]
pub(super) enum ShapeKind {
    /// saphyr's "no value" marker (also what it uses to mean "expecting a key").
    Bad,
    Scalar,
    Seq(Vec<Shape>),
    Map(AnnotatedMappingOwned<Shape>),
}

impl Shape {
    pub(super) fn leaf(kind: ShapeKind) -> Shape {
        Shape {
            id: next_shape_id(),
            cloned: false,
            start: None,
            height: 0,
            size: 1,
            alias_nodes: 0,
            deepest: None,
            over_limit: None,
            kind,
        }
    }

    /// Folds the children of a finished collection into its summary and drops them.
    pub(super) fn summarize(&mut self) {
        let mut children = Vec::new();
        match &mut self.kind {
            ShapeKind::Seq(items) => children.append(items),
            ShapeKind::Map(map) => {
                for (k, v) in std::mem::take(map) {
                    children.push(k);
                    children.push(v);
                }
            }
            ShapeKind::Bad | ShapeKind::Scalar => return,
        }
        let mut deepest_child: Option<&Shape> = None;
        for child in &children {
            self.size = self.size.saturating_add(child.size);
            let from_alias = if child.cloned {
                child.size
            } else {
                child.alias_nodes
            };
            self.alias_nodes = self.alias_nodes.saturating_add(from_alias);
            if self.over_limit.is_none() {
                self.over_limit = child.over_limit;
            }
            if child.height > deepest_child.map_or(0, |d| d.height) {
                deepest_child = Some(child);
            }
        }
        match deepest_child {
            Some(child) => {
                self.height = child.height.saturating_add(1);
                self.deepest = child.deepest.or(child.start);
            }
            None => {
                self.height = 1;
                self.deepest = self.start;
            }
        }
        if self.over_limit.is_none() && self.alias_nodes > MAX_ALIAS_NODES {
            self.over_limit = self.start;
        }
    }
}

/// O(1): a finished collection has no children left (see [`Shape::summarize`]).
impl Clone for Shape {
    fn clone(&self) -> Self {
        let kind = match &self.kind {
            ShapeKind::Bad => ShapeKind::Bad,
            ShapeKind::Scalar => ShapeKind::Scalar,
            ShapeKind::Seq(_) => ShapeKind::Seq(Vec::new()),
            ShapeKind::Map(_) => ShapeKind::Map(AnnotatedMappingOwned::default()),
        };
        Shape {
            id: next_shape_id(),
            cloned: true,
            kind,
            ..*self
        }
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Shape {}

impl std::hash::Hash for Shape {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl<'input> LoadableYamlNode<'input> for Shape {
    type HashKey = Shape;

    fn from_bare_yaml(yaml: Yaml<'input>) -> Self {
        Shape::leaf(match yaml {
            Yaml::Sequence(_) => ShapeKind::Seq(Vec::new()),
            Yaml::Mapping(_) => ShapeKind::Map(AnnotatedMappingOwned::default()),
            Yaml::Tagged(_, inner) => return Shape::from_bare_yaml(*inner),
            Yaml::BadValue | Yaml::Alias(_) => ShapeKind::Bad,
            Yaml::Value(_) | Yaml::Representation(..) => ShapeKind::Scalar,
        })
    }

    fn is_sequence(&self) -> bool {
        matches!(self.kind, ShapeKind::Seq(_))
    }

    fn is_mapping(&self) -> bool {
        matches!(self.kind, ShapeKind::Map(_))
    }

    fn is_badvalue(&self) -> bool {
        matches!(self.kind, ShapeKind::Bad)
    }

    /// saphyr only asks after checking `is_sequence`; anything else is turned into an empty
    /// sequence rather than panicking.
    fn sequence_mut(&mut self) -> &mut Vec<Self> {
        if !self.is_sequence() {
            self.kind = ShapeKind::Seq(Vec::new());
        }
        match &mut self.kind {
            ShapeKind::Seq(items) => items,
            _ => unreachable!("just made a sequence"),
        }
    }

    fn mapping_mut(&mut self) -> &mut AnnotatedMappingOwned<Self> {
        if !self.is_mapping() {
            self.kind = ShapeKind::Map(AnnotatedMappingOwned::default());
        }
        match &mut self.kind {
            ShapeKind::Map(map) => map,
            _ => unreachable!("just made a mapping"),
        }
    }

    fn into_tagged(self, _tag: std::borrow::Cow<'input, saphyr::Tag>) -> Self {
        // Tags are reported by the span pass; the shape is unchanged.
        self
    }

    fn take(&mut self) -> Self {
        std::mem::replace(self, Shape::leaf(ShapeKind::Bad))
    }

    fn with_start_marker(mut self, mark: Marker) -> Self {
        self.start = Some(mark.index());
        self
    }

    fn with_end_marker(mut self, _mark: Marker) -> Self {
        self.summarize();
        self
    }
}
