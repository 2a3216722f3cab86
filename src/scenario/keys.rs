//! The keys a scenario file may hold, read from the types it is read into.

/// The keys a scenario file may hold, table by table (`""` the top level, `physics`,
/// `items`, `players`, `players.script`), read from the types the file is read into, so
/// that documentation can be checked against them.
pub fn keys() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("", fields_of::<super::RawScenario>()),
        ("physics", fields_of::<super::RawPhysics>()),
        ("items", fields_of::<super::RawItems>()),
        ("players", fields_of::<super::players::RawPlayer>()),
        (
            "players.script",
            fields_of::<crate::bot::control::ScriptStep>(),
        ),
    ]
}

/// The field names serde's derive gives a struct: a deserializer that asks for a struct
/// hears them, and stops there.
fn fields_of<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    struct Ask<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Ask<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(serde::de::Error::custom("fields read"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Ask(&mut fields));
    fields
}
