//! Code the page loads on its first use. Most visitors never pair with an agent, import a
//! file, download a table or plan a deployment, so the release bundle (built with the `split`
//! feature by `cargo xtask web-wasm`) makes the functions that do those things split
//! points: the code of each module of them (`lab`, `export`, `deploy`), and all that only
//! it reaches, goes to a separate WebAssembly file that the browser fetches when one of its
//! functions is first called. Without the feature they are plain async functions in the
//! one module, so the page behaves the same either way: every caller awaits them.
//!
//! A module that cannot be fetched (the network dropped after the page loaded) is a
//! [`NotLoaded`] error that the caller shows; the next call fetches it again.

use std::fmt;

/// A split module could not be fetched or instantiated (the browser's console says why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLoaded;

impl fmt::Display for NotLoaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "this part of the calculator could not be loaded (is the network down?); try again, or reload the page",
        )
    }
}

impl std::error::Error for NotLoaded {}

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for NotLoaded {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        NotLoaded
    }
}

/// Declares `pub async fn $name(..) -> Result<T, NotLoaded>` (`T` the declared return type,
/// `()` if none) as a split point of `$module`: with the `split` feature, through
/// `wasm_split_helpers` (`fallible`: a failed fetch is an error, not a panic); without it,
/// the same body as a plain async function that is always `Ok`.
#[macro_export]
macro_rules! split_point {
    ($module:ident, $(#[$meta:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $crate::split_point! { $module, $(#[$meta])* pub fn $name($($arg: $ty),*) -> () $body }
    };
    ($module:ident, $(#[$meta:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(feature = "split")]
        $(#[$meta])*
        #[wasm_split_helpers::wasm_split($module, fallible)]
        pub fn $name($($arg: $ty),*) -> ::core::result::Result<$ret, $crate::split::NotLoaded> {
            // The body is a function of its own, returning `T` (its `return` and `?` too).
            fn body($($arg: $ty),*) -> $ret $body
            ::core::result::Result::Ok(body($($arg),*))
        }

        #[cfg(not(feature = "split"))]
        $(#[$meta])*
        pub async fn $name($($arg: $ty),*) -> ::core::result::Result<$ret, $crate::split::NotLoaded> {
            fn body($($arg: $ty),*) -> $ret $body
            ::core::result::Result::Ok(body($($arg),*))
        }
    };
}

/// Numbers the requests of one kind, so that only the latest one's answer is kept: while a
/// split module loads, answers can come back out of order.
#[derive(Clone, Copy)]
pub struct Latest(leptos::prelude::StoredValue<u64>);

impl Default for Latest {
    fn default() -> Latest {
        Latest::new()
    }
}

impl Latest {
    /// No request yet.
    pub fn new() -> Latest {
        Latest(leptos::prelude::StoredValue::new(0))
    }

    /// Starts a request: its ticket is current until the next one starts.
    pub fn start(self) -> u64 {
        use leptos::prelude::{GetValue, UpdateValue};
        self.0.update_value(|n| *n += 1);
        self.0.get_value()
    }

    /// Whether no request started after the one holding `ticket`.
    pub fn is_current(self, ticket: u64) -> bool {
        use leptos::prelude::GetValue;
        self.0.get_value() == ticket
    }
}
