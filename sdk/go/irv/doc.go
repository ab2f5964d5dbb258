// Manage an organization on the Identity, Registry and Vulnerability Platform as code.
package irv
