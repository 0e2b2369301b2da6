// Routes of the accounts area: login and sign up (visitors), profile (signed in), password reset.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { signedInLayout, visitorsLayout } from './layouts.ts'
import { LoginSearch } from './return-to.ts'
import { rootRoute } from './root.tsx'

export const loginRoute = createRoute({
  getParentRoute: () => visitorsLayout,
  path: '/login',
  // the page to return to once signed in (a path of this site only)
  validateSearch: LoginSearch,
  component: lazyScreen(() => import('../screens/accounts/login.tsx'), 'LoginScreen'),
})

export const signUpRoute = createRoute({
  getParentRoute: () => visitorsLayout,
  path: '/signup',
  component: lazyScreen(() => import('../screens/accounts/sign-up.tsx'), 'SignUpScreen'),
})

export const profileRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/profile',
  component: lazyScreen(() => import('../screens/accounts/profile.tsx'), 'ProfileScreen'),
})

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyScreen(() => import('../screens/accounts/forgot-password.tsx'), 'ForgotPasswordScreen'),
})

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  component: lazyScreen(() => import('../screens/accounts/reset-password.tsx'), 'ResetPasswordScreen'),
})

export const visitorRoutes = [loginRoute, signUpRoute] as const
export const passwordRoutes = [forgotPasswordRoute, resetPasswordRoute] as const
