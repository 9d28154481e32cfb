import { createThemeContract } from '@vanilla-extract/css';

/** One theme contract; tokens are named by meaning. Each brand supplies values only. */
export const vars = createThemeContract({
  color: {
    background: {
      body: null,
      surface: null,
      surfaceRaised: null,
      brandAccent: null,
      brandAccentHover: null,
      formAccent: null,
      critical: null,
      positive: null,
      caution: null,
      info: null,
    },
    foreground: { text: null, muted: null, onBrandAccent: null, link: null, critical: null, positive: null, caution: null, info: null, onToolbar: null },
    border: { standard: null, field: null, focus: null, critical: null },
    /** Toolbar colour by role (spec 01 section 6): green CareAssist, purple CareGuard, blue otherwise. */
    toolbar: { assist: null, guard: null, standard: null },
  },
  font: { body: null, heading: null, size: { small: null, standard: null, large: null, title: null } },
  space: { xsmall: null, small: null, medium: null, large: null, xlarge: null },
  radius: { standard: null, large: null },
  shadow: { raised: null },
});
