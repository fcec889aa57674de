//! Code the page loads on its first use. Most visitors never pair with an agent, import a
//! file or download a table, so the release bundle (built with the `split` feature by
//! `cargo xtask web-wasm`) makes the functions that do those things split points: the code
//! of each module of them (`lab`, `export`), and all that only it reaches, goes to a
//! separate WebAssembly file that the browser fetches when one of its functions is first
//! called. Without the feature they are plain async functions in the one module, so the
//! page behaves the same either way: every caller awaits them.

/// Declares `pub async fn $name` as a split point of `$module`: with the `split` feature,
/// through `wasm_split_helpers`; without it, the same body as a plain async function.
#[macro_export]
macro_rules! split_point {
    ($module:ident, $(#[$meta:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        #[cfg(feature = "split")]
        $(#[$meta])*
        #[wasm_split_helpers::wasm_split($module)]
        pub fn $name($($arg: $ty),*) $(-> $ret)? $body

        #[cfg(not(feature = "split"))]
        $(#[$meta])*
        pub async fn $name($($arg: $ty),*) $(-> $ret)? $body
    };
}
