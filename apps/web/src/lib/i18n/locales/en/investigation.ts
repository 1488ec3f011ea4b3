/** English texts of the `investigation` namespace (see ../en.ts). */
export const investigation = {
  title: 'Investigation',
};
