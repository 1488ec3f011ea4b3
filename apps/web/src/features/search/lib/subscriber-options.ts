/** A user a picker may offer. */
export interface PickableUser {
  id: number;
  username: string;
  fullName: string;
}

/**
 * The subscribers picker's options: the users offered, by name, and every chosen one the list lacks
 * (a subscriber deactivated since, say) under its id, so that saving keeps it rather than dropping it.
 */
export function subscriberOptions(
  users: readonly PickableUser[],
  chosen: readonly number[],
): { value: string; label: string }[] {
  const options = users.map((user) => ({
    value: String(user.id),
    label: user.fullName && user.fullName !== user.username ? `${user.fullName} (${user.username})` : user.username,
  }));
  const offered = new Set(users.map((user) => user.id));
  const missing = chosen.filter((id) => !offered.has(id)).map((id) => ({ value: String(id), label: `#${id}` }));
  return [...options, ...missing];
}
