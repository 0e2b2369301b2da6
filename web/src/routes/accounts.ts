// Routes of the accounts area: login, sign up, profile, password reset.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { signedIn, signedOut } from './guards.ts'
import { rootRoute } from './root.tsx'

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  beforeLoad: signedOut,
  component: lazyRouteComponent(() => import('../screens/accounts/login.tsx'), 'LoginScreen'),
})

export const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  beforeLoad: signedOut,
  component: lazyRouteComponent(() => import('../screens/accounts/sign-up.tsx'), 'SignUpScreen'),
})

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/accounts/profile.tsx'), 'ProfileScreen'),
})

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(
    () => import('../screens/accounts/forgot-password.tsx'),
    'ForgotPasswordScreen',
  ),
})

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  component: lazyRouteComponent(
    () => import('../screens/accounts/reset-password.tsx'),
    'ResetPasswordScreen',
  ),
})

export const accountRoutes = [
  loginRoute,
  signUpRoute,
  profileRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
] as const
