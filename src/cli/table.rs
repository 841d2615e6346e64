//! Column output with kubectl's look, for every command that prints a table (`get`,
//! `rollout history`, `install` listings): no borders, UPPER-case headers, columns as wide
//! as their widest cell and two spaces apart, no trailing spaces.
use comfy_table::{ContentArrangement, Table, presets};

/// `header` (upper-cased) then `rows`, one line each.
pub fn render<S: AsRef<str>>(header: &[S], rows: &[Vec<String>]) -> String {
    let mut all = vec![
        header
            .iter()
            .map(|h| h.as_ref().to_uppercase())
            .collect::<Vec<_>>(),
    ];
    all.extend(rows.iter().cloned());
    render_rows(&all)
}

/// `rows` as they are (no header: `--no-headers`), one line each.
pub fn render_rows(rows: &[Vec<String>]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    for row in rows {
        table.add_row(row.clone());
    }
    let last = table.column_count().saturating_sub(1);
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, if i == last { 0 } else { 2 }));
    }
    let mut out: String = table
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_two_spaces_apart_with_upper_headers_and_no_borders() {
        let rows = vec![
            vec!["web".to_string(), "3/3".to_string(), "5m".to_string()],
            vec!["guestbook-clone".to_string(), "1/3".to_string(), String::new()],
        ];
        assert_eq!(
            render(&["name", "ready", "age"], &rows),
            "NAME             READY  AGE\nweb              3/3    5m\nguestbook-clone  1/3\n"
        );
    }
}
