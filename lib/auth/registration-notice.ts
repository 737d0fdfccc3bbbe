/** The mail to the owner of an address someone tried to register again: nothing changed, and how to sign in. */
export function registrationNotice(input: { name: string; origin: string }): {
  subject: string;
  text: string;
} {
  const origin = new URL(input.origin).origin;
  return {
    subject: "Someone tried to create a Switchboard account with your address",
    text: [
      `Hello ${input.name},`,
      "",
      `Someone, perhaps you, tried to create a Switchboard account at ${origin} with this address.`,
      "You already have an account with it, so nothing was created and nothing about your account changed.",
      "",
      `To use your account, sign in at ${origin}/login.`,
      "If it was not you, you can ignore this mail.",
    ].join("\n"),
  };
}
