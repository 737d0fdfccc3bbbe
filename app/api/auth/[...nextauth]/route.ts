import { handlers } from "@/lib/auth/nextauth";
import { otherMethods } from "@/lib/http/other-methods";

export const { GET, POST } = handlers;

export const { DELETE, OPTIONS, PATCH, PUT } = otherMethods("GET", "POST");
