/** English texts of the `triage` namespace (see ../en.ts). */
export const triage = {
  title: 'Triage',
};
