// The create-key form's expiry options, shared by the form (a client component) and the action's schema.
export const EXPIRY_CHOICES = ["never", "30", "90", "365", "date"] as const;
