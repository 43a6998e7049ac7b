package dev.onceproof.conformance.tlc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table with padded columns; numbers are right-aligned by the caller's choice. */
public final class TextTable {

    private final List<String> headers;
    private final boolean[] rightAligned;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
        this.rightAligned = new boolean[headers.length];
    }

    public TextTable alignRight(int... columns) {
        for (int c : columns) {
            rightAligned[c] = true;
        }
        return this;
    }

    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c.toString()).toArray(String[]::new));
        return this;
    }

    public String render() {
        int[] width = new int[headers.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = headers.get(c).length();
            for (String[] r : rows) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, headers.toArray(String[]::new), width);
        String[] rule = new String[width.length];
        for (int c = 0; c < width.length; c++) {
            rule[c] = "-".repeat(width[c]);
        }
        line(sb, rule, width);
        rows.forEach(r -> line(sb, r, width));
        return sb.toString();
    }

    private void line(StringBuilder sb, String[] cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                l.append("  ");
            }
            String pad = " ".repeat(width[c] - cells[c].length());
            l.append(rightAligned[c] ? pad + cells[c] : cells[c] + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
