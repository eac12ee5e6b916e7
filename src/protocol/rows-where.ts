/** The names of the rows of `Table` that fit `Row`: `RowsWhere<typeof ELEMENT_OPTIONS, { session: true }>`. Types only. */
export type RowsWhere<Table, Row> = { [K in keyof Table]: Table[K] extends Row ? K : never }[keyof Table];
