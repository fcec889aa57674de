//! Entry point of the browser calculator: mounts the app (components live in the library).

fn main() {
    rooflinr_web::mount();
}
