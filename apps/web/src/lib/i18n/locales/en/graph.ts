/** English texts of the `graph` namespace (see ../en.ts). */
export const graph = {
  title: 'Graph',
};
