import type { ReactNode } from "react";

// The SPA's icons, drawn inline as SVG. A font glyph used as an icon (🔒, ✓,
// ℹ, ▸…) shows as an empty box wherever the machine lacks a font that has it
// (Chromium on Debian has no emoji font), so every icon is drawn here instead.
// Icons are decoration: the meaning is always in the text beside them, so
// each is aria-hidden. They take the text's colour and, by default, its size.

export interface IconProps {
  /** Size and spacing; defaults to the surrounding text's size. */
  className?: string;
}

type IconName = "lock" | "check" | "cross" | "alert" | "info" | "dot" | "chevron-right" | "chevron-down" | "chevron-left" | "clock-change" | "continues";

function Icon({ name, className = "h-[1em] w-[1em]", children }: IconProps & { name: IconName; children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      data-icon={name}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`inline-block shrink-0 align-[-0.125em] ${className}`}
    >
      {children}
    </svg>
  );
}

export function LockIcon(props: IconProps) {
  return (
    <Icon name="lock" {...props}>
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </Icon>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <Icon name="check" {...props}>
      <path d="M3 8.5l3.25 3.25L13 4.75" strokeWidth={2} />
    </Icon>
  );
}

export function CrossIcon(props: IconProps) {
  return (
    <Icon name="cross" {...props}>
      <path d="M4 4l8 8M12 4l-8 8" strokeWidth={2} />
    </Icon>
  );
}

/** An exclamation mark: something needs attention. */
export function AlertIcon(props: IconProps) {
  return (
    <Icon name="alert" {...props}>
      <path d="M8 3v6" strokeWidth={2.25} />
      <circle cx="8" cy="12.75" r="1.25" fill="currentColor" stroke="none" />
    </Icon>
  );
}

/** A lower-case i: information. */
export function InfoIcon(props: IconProps) {
  return (
    <Icon name="info" {...props}>
      <circle cx="8" cy="3.75" r="1.25" fill="currentColor" stroke="none" />
      <path d="M8 7v6" strokeWidth={2.25} />
    </Icon>
  );
}

export function DotIcon(props: IconProps) {
  return (
    <Icon name="dot" {...props}>
      <circle cx="8" cy="8" r="3" fill="currentColor" stroke="none" />
    </Icon>
  );
}

export function ChevronRightIcon(props: IconProps) {
  return (
    <Icon name="chevron-right" {...props}>
      <path d="M6 3.5L10.5 8 6 12.5" strokeWidth={2} />
    </Icon>
  );
}

export function ChevronDownIcon(props: IconProps) {
  return (
    <Icon name="chevron-down" {...props}>
      <path d="M3.5 6L8 10.5 12.5 6" strokeWidth={2} />
    </Icon>
  );
}

export function ChevronLeftIcon(props: IconProps) {
  return (
    <Icon name="chevron-left" {...props}>
      <path d="M10 3.5L5.5 8 10 12.5" strokeWidth={2} />
    </Icon>
  );
}

/** An arrow turning back on itself: the clocks change that day. */
export function ClockChangeIcon(props: IconProps) {
  return (
    <Icon name="clock-change" {...props}>
      <path d="M3.5 8a4.5 4.5 0 1 0 1.3-3.2" />
      <path d="M4.5 2v3h3" />
    </Icon>
  );
}

/** An arrow going down then right: continued from the day before. */
export function ContinuesIcon(props: IconProps) {
  return (
    <Icon name="continues" {...props}>
      <path d="M4 2.5v5.5a2 2 0 0 0 2 2h7" />
      <path d="M10.5 7.5L13 10l-2.5 2.5" />
    </Icon>
  );
}
