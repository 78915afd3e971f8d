import type { ReactNode } from 'react';

/** A table's row: its React key and its cells, text or controls. */
export interface TableRow {
  key: string;
  cells: ReactNode[];
}

/** A table under a head of column names (`<th scope="col">`), in a wrapper that scrolls it sideways; on a phone each row stands as a block, each cell under its column's name (`data-label`, global.css). */
export function Table({ head, rows }: { head: string[]; rows: TableRow[] }) {
  return (
    <div className="table-wrap">
      <table className="stack">
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((cell, i) => (
                <td key={i} data-label={head[i]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
