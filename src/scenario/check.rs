//! Checking a scenario's values where they are written: errors that name the file, the line
//! and column, the key and what it may be; and "did you mean" for misspelt names.

use toml::Spanned;

use super::ScenarioError;

/// The scenario text being checked, to turn byte offsets into `FILE:LINE:COLUMN` errors.
pub(super) struct At<'a> {
    /// The whole text.
    pub text: &'a str,
    /// The file, as errors name it.
    pub path: String,
}

impl At<'_> {
    /// The error `message` at byte `offset`.
    pub fn err(&self, offset: usize, message: String) -> ScenarioError {
        let (line, column) = line_col(self.text, offset);
        ScenarioError::Invalid {
            path: self.path.clone(),
            line,
            column,
            message,
        }
    }

    /// The 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        line_col(self.text, offset).0
    }

    /// A number that must be finite and within `lo..=hi`, or the error naming `key`.
    pub fn number(
        &self,
        key: &str,
        v: &Spanned<f32>,
        lo: f32,
        hi: f32,
    ) -> Result<f32, ScenarioError> {
        let x = *v.get_ref();
        if x.is_finite() && (lo..=hi).contains(&x) {
            Ok(x)
        } else {
            Err(self.err(v.span().start, format!("{key}: {x} is outside {lo}..={hi}")))
        }
    }

    /// A point whose coordinates must be finite and within ±[`MAX_COORD`].
    pub fn point(&self, key: &str, v: &Spanned<[f32; 3]>) -> Result<glam::Vec3, ScenarioError> {
        let p = *v.get_ref();
        if p.iter().all(|c| c.is_finite() && c.abs() <= MAX_COORD) {
            Ok(glam::Vec3::from(p))
        } else {
            Err(self.err(
                v.span().start,
                format!(
                    "{key}: [{}, {}, {}] needs finite coordinates within ±{MAX_COORD}",
                    p[0], p[1], p[2]
                ),
            ))
        }
    }
}

/// The largest coordinate a scenario may give: far beyond any Quake map (id's engine keeps
/// maps within ±4096, today's within ±65536).
pub const MAX_COORD: f32 = 1.0e6;

/// 1-based line and column of byte `offset` in `text`.
pub(super) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// The closest of `known` to a misspelt `word`, when one is close enough to be what was
/// meant (an edit or two, more for long names).
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 4).max(2);
    known
        .into_iter()
        .map(|k| {
            (
                strsim::levenshtein(&word.to_lowercase(), &k.to_lowercase()),
                k,
            )
        })
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, k)| (d, k))
        .map(|(_, k)| k)
}

/// `" (did you mean X?)"` or nothing.
pub fn suggestion<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, known)
        .map(|k| format!(" (did you mean {k:?}?)"))
        .unwrap_or_default()
}

/// What a scenario asks of its map, checked once the map is loaded: spawn points for the
/// players that need one, `start`s inside the sealed world and clear of brushes, `target`s
/// within the map, and `items.remove` classes the map has.
pub(super) fn against_map(
    s: &super::Scenario,
    level: &crate::map::level::Level,
    cmap: &crate::map::collision::CollisionMap,
) -> Result<(), ScenarioError> {
    use crate::map::brush::Contents;
    use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
    let invalid = |line: usize, message: String| ScenarioError::Invalid {
        path: s.path.display().to_string(),
        line,
        column: 1,
        message,
    };
    for (class, line) in &s.removals_to_check {
        if !level.items.iter().any(|i| &i.classname == class) {
            let mut known: Vec<&str> = crate::map::level::ITEM_CLASSES.to_vec();
            known.extend(level.items.iter().map(|i| i.classname.as_str()));
            return Err(invalid(
                *line,
                format!(
                    "items.remove: {class:?} is neither a Quake item class nor on map {}{}",
                    s.map.display(),
                    suggestion(class, known)
                ),
            ));
        }
    }
    if level.spawns.is_empty()
        && let Some(p) = s.players.iter().find(|p| p.config.start.is_none())
    {
        let world = level.map.entities.first();
        return Err(ScenarioError::Invalid {
            path: level.map.source.clone(),
            line: world.map(|e| e.line).unwrap_or(1),
            column: 1,
            message: format!(
                "the map has no info_player_deathmatch or info_player_start, and player {:?} ({}:{}) needs one (or give it `start = [x, y, z]`)",
                p.config.name,
                s.path.display(),
                p.name_line
            ),
        });
    }
    let (lo, hi) = cmap.bounds();
    let span = |v: glam::Vec3| format!("[{}, {}, {}]", v.x, v.y, v.z);
    let mut flood = None;
    for p in &s.players {
        if let Some((o, _)) = p.config.start {
            if o.cmplt(lo).any() || o.cmpgt(hi).any() {
                return Err(invalid(
                    p.start_line,
                    format!(
                        "start: {} is outside the map (its brushes span {} to {})",
                        span(o),
                        span(lo),
                        span(hi)
                    ),
                ));
            }
            // A box that only touches a brush (standing on a floor) is clear.
            let skin = glam::Vec3::splat(1.0 / 8.0);
            let (mins, maxs) = (PLAYER_MINS + skin, PLAYER_MAXS - skin);
            let t = cmap.trace(o, o, mins, maxs, Contents::MASK_PLAYER_NO_BODIES, None);
            if t.start_solid {
                return Err(invalid(
                    p.start_line,
                    format!(
                        "start: {} puts the player's box (origin {} + {} to {}) in a brush; move it clear",
                        span(o),
                        span(o),
                        span(PLAYER_MINS),
                        span(PLAYER_MAXS)
                    ),
                ));
            }
            let f = flood.get_or_insert_with(|| crate::map::seal::Flood::of(level));
            if f.as_ref().is_some_and(|f| f.found_inside() && !f.inside(o)) {
                return Err(invalid(
                    p.start_line,
                    format!(
                        "start: {} is outside the map's sealed inside (in the void)",
                        span(o)
                    ),
                ));
            }
        }
        let target = match &p.config.controller {
            crate::bot::control::ControllerConfig::Goto(t)
            | crate::bot::control::ControllerConfig::Route(t) => Some(*t),
            _ => None,
        };
        if let Some(t) = target
            && (t.cmplt(lo).any() || t.cmpgt(hi).any())
        {
            return Err(invalid(
                p.target_line,
                format!(
                    "target: {} is outside the map (its brushes span {} to {})",
                    span(t),
                    span(lo),
                    span(hi)
                ),
            ));
        }
    }
    Ok(())
}
