//! Table rendering for the terminal (Markdown-compatible, so it pastes into reports).

use comfy_table::presets::ASCII_MARKDOWN;
use comfy_table::{CellAlignment, ColumnConstraint, Table};

/// A table with the house style: Markdown borders, numbers right-aligned from `numeric_from`.
pub fn new(header: &[&str], numeric_from: usize) -> Table {
    let mut t = Table::new();
    t.load_preset(ASCII_MARKDOWN).set_header(header.to_vec());
    for (i, column) in t.column_iter_mut().enumerate() {
        if i >= numeric_from {
            column.set_cell_alignment(CellAlignment::Right);
        }
        column.set_constraint(ColumnConstraint::ContentWidth);
    }
    t
}

/// Prints a table followed by a blank line.
pub fn print(t: &Table) {
    println!("{t}\n");
}
