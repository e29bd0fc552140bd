
/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0:     file format elf64-x86-64


Disassembly of section .text:

000000000024f7b0 <take_gil>:
  24f7b0:	push   %r15
  24f7b2:	push   %r14
  24f7b4:	mov    %rdi,%r14
  24f7b7:	push   %r13
  24f7b9:	push   %r12
  24f7bb:	push   %rbp
  24f7bc:	push   %rbx
  24f7bd:	sub    $0x38,%rsp
  24f7c1:	call   f8800 <__errno_location@plt>
  24f7c6:	mov    %r14,%rdi
  24f7c9:	mov    %rax,0x8(%rsp)
  24f7ce:	mov    (%rax),%eax
  24f7d0:	mov    %eax,0x18(%rsp)
  24f7d4:	call   297620 <_PyThreadState_MustExit>
  24f7d9:	test   %eax,%eax
  24f7db:	jne    24f964 <take_gil+0x1b4>
  24f7e1:	mov    0x10(%r14),%rax
  24f7e5:	mov    0x28(%rax),%r15
  24f7e9:	mov    %rax,(%rsp)
  24f7ed:	lea    0x1b8(%r15),%r12
  24f7f4:	lea    0x160(%r15),%rax
  24f7fb:	mov    %r12,%rdi
  24f7fe:	mov    %rax,0x10(%rsp)
  24f803:	call   f9d70 <pthread_mutex_lock@plt>
  24f808:	mov    %eax,0x1c(%rsp)
  24f80c:	test   %eax,%eax
  24f80e:	jne    24fac4 <take_gil+0x314>
  24f814:	mov    0x178(%r15),%eax
  24f81b:	lea    0x178(%r15),%rbp
  24f822:	lea    0x20(%rsp),%rbx
  24f827:	test   %eax,%eax
  24f829:	je     24f8d0 <take_gil+0x120>
  24f82f:	nop
  24f830:	mov    0x0(%rbp),%eax
  24f833:	test   %eax,%eax
  24f835:	je     24f8d0 <take_gil+0x120>
  24f83b:	mov    0x168(%r15),%rdi
  24f842:	mov    $0x1,%eax
  24f847:	mov    %rbx,%rsi
  24f84a:	mov    0x180(%r15),%r13
  24f851:	test   %rdi,%rdi
  24f854:	cmove  %rax,%rdi
  24f858:	call   2a8fd0 <_PyThread_cond_after>
  24f85d:	lea    0x188(%r15),%rdi
  24f864:	mov    %rbx,%rdx
  24f867:	mov    %r12,%rsi
  24f86a:	call   f65c0 <pthread_cond_timedwait@plt>
  24f86f:	cmp    $0x6e,%eax
  24f872:	je     24f890 <take_gil+0xe0>
  24f874:	test   %eax,%eax
  24f876:	je     24f830 <take_gil+0x80>
  24f878:	lea    0x133dce(%rip),%rsi        # 38364d <builtin___import____doc__+0x14ed>
  24f87f:	lea    0x1340e2(%rip),%rdi        # 383968 <__func__.15>
  24f886:	call   f6770 <_Py_FatalErrorFunc@plt>
  24f88b:	nopl   0x0(%rax,%rax,1)
  24f890:	mov    0x0(%rbp),%eax
  24f893:	test   %eax,%eax
  24f895:	je     24f830 <take_gil+0x80>
  24f897:	cmp    %r13,0x180(%r15)
  24f89e:	jne    24f830 <take_gil+0x80>
  24f8a0:	mov    %r14,%rdi
  24f8a3:	call   297620 <_PyThreadState_MustExit>
  24f8a8:	test   %eax,%eax
  24f8aa:	jne    24fa66 <take_gil+0x2b6>
  24f8b0:	mov    (%rsp),%rax
  24f8b4:	movl   $0x1,0x68(%rax)
  24f8bb:	movl   $0x1,0x64(%rax)
  24f8c2:	movl   $0x1,0x1c(%rsp)
  24f8ca:	jmp    24f830 <take_gil+0x80>
  24f8cf:	nop
  24f8d0:	lea    0x210(%r15),%rbx
  24f8d7:	mov    %rbx,%rdi
  24f8da:	call   f9d70 <pthread_mutex_lock@plt>
  24f8df:	test   %eax,%eax
  24f8e1:	jne    24fad7 <take_gil+0x327>
  24f8e7:	movl   $0x1,0x178(%r15)
  24f8f2:	mov    0x170(%r15),%rax
  24f8f9:	cmp    %rax,%r14
  24f8fc:	je     24f90d <take_gil+0x15d>
  24f8fe:	mov    %r14,0x170(%r15)
  24f905:	addq   $0x1,0x180(%r15)
  24f90d:	lea    0x1e0(%r15),%rdi
  24f914:	call   f5c20 <pthread_cond_signal@plt>
  24f919:	test   %eax,%eax
  24f91b:	jne    24fafd <take_gil+0x34d>
  24f921:	mov    %rbx,%rdi
  24f924:	call   fa250 <pthread_mutex_unlock@plt>
  24f929:	test   %eax,%eax
  24f92b:	jne    24faea <take_gil+0x33a>
  24f931:	mov    %r14,%rdi
  24f934:	call   297620 <_PyThreadState_MustExit>
  24f939:	mov    %eax,%ebx
  24f93b:	test   %eax,%eax
  24f93d:	je     24f970 <take_gil+0x1c0>
  24f93f:	mov    %r12,%rdi
  24f942:	call   fa250 <pthread_mutex_unlock@plt>
  24f947:	test   %eax,%eax
  24f949:	jne    24f9f8 <take_gil+0x248>
  24f94f:	mov    (%rsp),%rsi
  24f953:	mov    0x10(%rsp),%rdi
  24f958:	mov    %r14,%rdx
  24f95b:	add    $0x60,%rsi
  24f95f:	call   24f3e0 <drop_gil>
  24f964:	call   f9a20 <PyThread_exit_thread@plt>
  24f969:	nopl   0x0(%rax)
  24f970:	mov    (%rsp),%rcx
  24f974:	mov    0x68(%rcx),%eax
  24f977:	test   %eax,%eax
  24f979:	je     24fa10 <take_gil+0x260>
  24f97f:	mov    0x28(%rcx),%rax
  24f983:	movl   $0x0,0x68(%rcx)
  24f98a:	mov    0x68(%rcx),%ebp
  24f98d:	mov    0x160(%rax),%eax
  24f993:	test   %eax,%eax
  24f995:	jne    24fa22 <take_gil+0x272>
  24f99b:	xor    %r13d,%r13d
  24f99e:	mov    (%rsp),%rax
  24f9a2:	mov    0x78(%rax),%eax
  24f9a5:	test   %eax,%eax
  24f9a7:	jne    24fa4c <take_gil+0x29c>
  24f9ad:	mov    (%rsp),%rax
  24f9b1:	or     0x7c(%rax),%ebp
  24f9b4:	or     %r13d,%ebp
  24f9b7:	or     %ebx,%ebp
  24f9b9:	mov    %ebp,0x64(%rax)
  24f9bc:	cmpq   $0x0,0x90(%r14)
  24f9c4:	je     24f9cf <take_gil+0x21f>
  24f9c6:	mov    0x10(%r14),%rdi
  24f9ca:	call   f9b10 <_PyEval_SignalAsyncExc@plt>
  24f9cf:	mov    %r12,%rdi
  24f9d2:	call   fa250 <pthread_mutex_unlock@plt>
  24f9d7:	test   %eax,%eax
  24f9d9:	jne    24f9f8 <take_gil+0x248>
  24f9db:	mov    0x8(%rsp),%rax
  24f9e0:	mov    0x18(%rsp),%ecx
  24f9e4:	mov    %ecx,(%rax)
  24f9e6:	add    $0x38,%rsp
  24f9ea:	pop    %rbx
  24f9eb:	pop    %rbp
  24f9ec:	pop    %r12
  24f9ee:	pop    %r13
  24f9f0:	pop    %r14
  24f9f2:	pop    %r15
  24f9f4:	ret
  24f9f5:	nopl   (%rax)
  24f9f8:	lea    0x133201(%rip),%rsi        # 382c00 <builtin___import____doc__+0xaa0>
  24f9ff:	lea    0x133f62(%rip),%rdi        # 383968 <__func__.15>
  24fa06:	call   f6770 <_Py_FatalErrorFunc@plt>
  24fa0b:	nopl   0x0(%rax,%rax,1)
  24fa10:	mov    0x68(%rcx),%ebp
  24fa13:	mov    0x160(%r15),%eax
  24fa1a:	test   %eax,%eax
  24fa1c:	je     24f99b <take_gil+0x1eb>
  24fa22:	call   f75b0 <PyThread_get_thread_ident@plt>
  24fa27:	mov    0x1f4302(%rip),%rdx        # 443d30 <_PyRuntime@@Base-0x10a810>
  24fa2e:	cmp    0x50(%rdx),%rax
  24fa32:	jne    24f99b <take_gil+0x1eb>
  24fa38:	xor    %r13d,%r13d
  24fa3b:	mov    (%rsp),%rax
  24fa3f:	cmp    %rax,0x30(%rdx)
  24fa43:	sete   %r13b
  24fa47:	jmp    24f99e <take_gil+0x1ee>
  24fa4c:	call   f75b0 <PyThread_get_thread_ident@plt>
  24fa51:	mov    0x1f42d8(%rip),%rdx        # 443d30 <_PyRuntime@@Base-0x10a810>
  24fa58:	xor    %ebx,%ebx
  24fa5a:	cmp    %rax,0x50(%rdx)
  24fa5e:	sete   %bl
  24fa61:	jmp    24f9ad <take_gil+0x1fd>
  24fa66:	mov    %r12,%rdi
  24fa69:	call   fa250 <pthread_mutex_unlock@plt>
  24fa6e:	mov    %eax,%ebp
  24fa70:	test   %eax,%eax
  24fa72:	jne    24f9f8 <take_gil+0x248>
  24fa74:	mov    0x1c(%rsp),%eax
  24fa78:	test   %eax,%eax
  24fa7a:	je     24f964 <take_gil+0x1b4>
  24fa80:	mov    (%rsp),%rcx
  24fa84:	mov    0x28(%rcx),%rax
  24fa88:	movl   $0x0,0x68(%rcx)
  24fa8f:	mov    0x68(%rcx),%ebx
  24fa92:	mov    0x160(%rax),%eax
  24fa98:	test   %eax,%eax
  24fa9a:	jne    24fb28 <take_gil+0x378>
  24faa0:	xor    %r12d,%r12d
  24faa3:	mov    (%rsp),%rax
  24faa7:	mov    0x78(%rax),%eax
  24faaa:	test   %eax,%eax
  24faac:	jne    24fb10 <take_gil+0x360>
  24faae:	mov    (%rsp),%rcx
  24fab2:	mov    0x7c(%rcx),%eax
  24fab5:	or     %ebx,%eax
  24fab7:	or     %r12d,%eax
  24faba:	or     %ebp,%eax
  24fabc:	mov    %eax,0x64(%rcx)
  24fabf:	jmp    24f964 <take_gil+0x1b4>
  24fac4:	lea    0x1330f5(%rip),%rsi        # 382bc0 <builtin___import____doc__+0xa60>
  24facb:	lea    0x133e96(%rip),%rdi        # 383968 <__func__.15>
  24fad2:	call   f6770 <_Py_FatalErrorFunc@plt>
  24fad7:	lea    0x13314a(%rip),%rsi        # 382c28 <builtin___import____doc__+0xac8>
  24fade:	lea    0x133e83(%rip),%rdi        # 383968 <__func__.15>
  24fae5:	call   f6770 <_Py_FatalErrorFunc@plt>
  24faea:	lea    0x133187(%rip),%rsi        # 382c78 <builtin___import____doc__+0xb18>
  24faf1:	lea    0x133e70(%rip),%rdi        # 383968 <__func__.15>
  24faf8:	call   f6770 <_Py_FatalErrorFunc@plt>
  24fafd:	lea    0x13328c(%rip),%rsi        # 382d90 <builtin___import____doc__+0xc30>
  24fb04:	lea    0x133e5d(%rip),%rdi        # 383968 <__func__.15>
  24fb0b:	call   f6770 <_Py_FatalErrorFunc@plt>
  24fb10:	call   f75b0 <PyThread_get_thread_ident@plt>
  24fb15:	mov    0x1f4214(%rip),%rdx        # 443d30 <_PyRuntime@@Base-0x10a810>
  24fb1c:	xor    %ebp,%ebp
  24fb1e:	cmp    %rax,0x50(%rdx)
  24fb22:	sete   %bpl
  24fb26:	jmp    24faae <take_gil+0x2fe>
  24fb28:	call   f75b0 <PyThread_get_thread_ident@plt>
  24fb2d:	mov    %rax,%rdx
  24fb30:	mov    0x1f41f9(%rip),%rax        # 443d30 <_PyRuntime@@Base-0x10a810>
  24fb37:	cmp    0x50(%rax),%rdx
  24fb3b:	jne    24faa0 <take_gil+0x2f0>
  24fb41:	xor    %r12d,%r12d
  24fb44:	mov    (%rsp),%rcx
  24fb48:	cmp    %rcx,0x30(%rax)
  24fb4c:	sete   %r12b
  24fb50:	jmp    24faa3 <take_gil+0x2f3>
