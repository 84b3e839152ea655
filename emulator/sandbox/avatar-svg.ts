/** A patient avatar: initials on a colour derived from the name, so each chart looks distinct. */
export function avatarSvg(firstName: string, lastName: string): string {
  const initials = `${firstName.charAt(0)}${lastName.charAt(0)}`.toUpperCase().replace(/[^A-Z]/g, "");
  let hash = 0;
  for (const char of `${firstName}${lastName}`) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="32" fill="hsl(${hue} 45% 42%)"/><text x="32" y="40" font-family="system-ui,sans-serif" font-size="24" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
}
